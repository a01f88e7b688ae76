/**
 * The local stage's change feed (contract §11, §12): reads the table's stream from DynamoDB Local
 * and invokes the same handlers the cloud's event source mappings do, each with its own position
 * and filters as a mapping has: the delivery handler (functions/hooks/change-feed.ts), the audit
 * consumer (functions/audit/change-feed.ts), the usage consumer (functions/billing/change-feed.ts)
 * the offboarding worker (functions/organisations/offboarding-feed.ts) and the import worker
 * (functions/organisations/import-feed.ts), with the same DynamoDBStreamEvent shape. Each record is
 * read from DynamoDB Local once for all of them (stream-reader.ts), and one a consumer's filters do
 * not take is never handed to it nor converted for it. A consumer's position is kept only up to the
 * records its handler took (in DATA_DIR when there is one, a file per consumer): a record it reports
 * failed, and everything after it, is handed over again, and a stopped stage resumes where it
 * stopped, so nothing recorded is lost: at least once, as in the cloud.
 *
 * The handler routes and enqueues only; attempts run from an in-process fair queue
 * (attempt-queue.ts) with each organisation's budget of attempts in flight, as the cloud's SQS
 * fair queue and its workers do. The cloud's delayed messages have a stand-in here too: pending
 * deliveries whose time has come are queued from the table's due index, which also picks up
 * deliveries an interrupted stage left.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { handler as recordAudit } from '../../functions/audit/change-feed';
import { handler as deliver } from '../../functions/hooks/change-feed';
import { handler as countUsage } from '../../functions/billing/change-feed';
import { handler as offboard } from '../../functions/organisations/offboarding-feed';
import { handler as importOn } from '../../functions/organisations/import-feed';
import { WEBHOOK_LIMITS } from '../../shared/limits';
import { useInProcessQueue, type AttemptMessage } from '../../shared/net/attempt-queue';
import { observed } from '../../shared/observability/invocation';
import { logger } from '../../shared/observability/logger';
import { runAs } from '../../shared/request-context';
import { queueDueDeliveries, runQueuedAttempt } from '../../shared/services/delivery-attempts';
import { STREAM_CONSUMERS } from '../stream-consumers';
import { FairQueue } from './attempt-queue';
import { passesFilters, type Pattern } from './emulator/event-filter';
import { StreamError, streamReader, type Page, type StreamReader } from './stream-reader';

export interface ChangeFeedOptions {
  endpoint: string;
  tableName: string;
  /** Where the webhook delivery's read position is kept across restarts; in memory only without it. */
  checkpointFile?: string;
  /** Where the audit consumer's read position is kept across restarts; in memory only without it. */
  auditCheckpointFile?: string;
  /** Where the usage consumer's read position is kept across restarts; in memory only without it. */
  usageCheckpointFile?: string;
  /** Where the offboarding worker's read position is kept across restarts; in memory only without it. */
  offboardingCheckpointFile?: string;
  /** Where the import worker's read position is kept across restarts; in memory only without it. */
  importCheckpointFile?: string;
  /** Milliseconds between two reads of the stream (default 250). */
  pollMs?: number;
  /** Milliseconds between two looks at the due index (default 1000). */
  dueMs?: number;
  /** Where the feed's own messages go (default: the service's log, as warnings of the work that writes them). */
  log?: (msg: string) => void;
}

interface Checkpoint {
  streamArn?: string;
  /** Per shard: the last sequence number handed over successfully, and whether the shard is read to its end. */
  shards: Record<string, { seq?: string; done?: boolean }>;
}

/** Records a GetRecords asks for (a consumer may ask for more: the usage consumer takes the cloud's 1,000). */
const BATCH = 100;
/** Attempts in flight on the local stage, all organisations together (each is one socket). */
const WORKERS = 50;
/** The usage consumer's batching window on the local stage (the cloud's mapping waits up to 2 s). */
const USAGE_POLL_MS = 1000;

function loadCheckpoint(file: string | undefined): Checkpoint {
  if (!file || !existsSync(file)) return { shards: {} };
  try {
    const c = JSON.parse(readFileSync(file, 'utf8')) as Checkpoint;
    return { streamArn: c.streamArn, shards: c.shards ?? {} };
  } catch {
    return { shards: {} };
  }
}

function saveCheckpoint(file: string | undefined, c: Checkpoint): void {
  if (!file) return;
  // Written whole and renamed, so a kill mid-write leaves the previous position, never half a file.
  writeFileSync(`${file}.tmp`, JSON.stringify(c));
  renameSync(`${file}.tmp`, file);
}

/**
 * A record as Lambda hands it to a DynamoDB Streams function: as GetRecords answered it, with the
 * mapping's stream and the record's time in whole seconds.
 */
function lambdaRecord(r: DynamoDBRecord, streamArn: string): DynamoDBRecord {
  const at = r.dynamodb?.ApproximateCreationDateTime;
  return { ...r, eventSourceARN: streamArn, dynamodb: { ...r.dynamodb, ...(at !== undefined ? { ApproximateCreationDateTime: Math.floor(at) } : {}) } };
}

type StreamHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

/** How often at most a consumer keeps its position after pages it handed nothing of. */
const PASSED_OVER_SAVE_MS = 1000;

/** How long a consumer reads the shards it described before it describes the stream again (a shard ended asks at once). */
const SHARDS_KEPT_MS = 10_000;

/**
 * One consumer of the stream, as an event source mapping is: its own position (kept in
 * `checkpointFile`), its own filters and handler; the records themselves come from `reader`,
 * which reads each of them once for all its consumers. Answers the step that reads every shard as
 * far as it goes now.
 */
export function streamConsumer(
  reader: StreamReader,
  opts: {
    tableName: string;
    /** Unique among the reader's consumers. */
    name: string;
    handler: StreamHandler;
    /** The filter patterns of its mapping (infra/stream-consumers.ts, or a template's). */
    filters: readonly Pattern[];
    checkpointFile?: string;
    log: (msg: string) => void;
    stopped: () => boolean;
    batch?: number;
    /** How often at most the position is kept after pages handed nothing of (PASSED_OVER_SAVE_MS). */
    passedOverSaveMs?: number;
  },
): () => Promise<boolean> {
  const batch = opts.batch ?? BATCH;
  const { log } = opts;
  const checkpoint = loadCheckpoint(opts.checkpointFile);
  let savedAt = 0;
  const save = () => {
    saveCheckpoint(opts.checkpointFile, checkpoint);
    savedAt = Date.now();
  };
  let streamArn: string | undefined;
  /**
   * The shards as last described. DescribeStream costs DynamoDB Local a walk of the whole stream (the
   * latest sequence number of each shard), so it is asked again only when a shard read to its end
   * may have a successor, or after SHARDS_KEPT_MS: asked on every poll by every consumer, it was
   * what the local stage spent its time on under a large import.
   */
  let shards: { list: string[]; at: number } | undefined;

  async function findStream(): Promise<string | undefined> {
    const arn = await reader.streamOf(opts.tableName);
    if (arn && checkpoint.streamArn !== arn) {
      // Another table of the same name: its positions mean nothing here.
      checkpoint.streamArn = arn;
      checkpoint.shards = {};
    }
    return arn;
  }

  /**
   * Reads one shard as far as it goes now; the position moves only past batches the handler took.
   * Answers true when it handed over any record or stopped short of the shard's end (there is more
   * to do), false when it found the shard read to its end.
   */
  async function readShard(arn: string, id: string): Promise<boolean> {
    let busy = false;
    for (;;) {
      if (opts.stopped()) return true;
      let page: Page;
      try {
        page = await reader.read(opts.name, arn, id, checkpoint.shards[id]?.seq, batch);
      } catch (e) {
        if (!(e instanceof StreamError)) throw e;
        if (e.name === 'ExpiredIteratorException') return true;
        if (e.name !== 'TrimmedDataAccessException') throw e;
        log(`change feed: ${opts.name}: shard ${id} was trimmed past the kept position; reading on from its oldest record`);
        delete checkpoint.shards[id];
        return true;
      }
      const { records } = page;
      if (records.length) {
        busy = true;
        // As the event source mapping's filters: a record no filter lets through is passed over
        // (the position moves past it) and never reaches the handler.
        const wanted = records.filter((r) => passesFilters(opts.filters, r));
        let failed = new Set<string>();
        try {
          if (wanted.length) {
            const answer = await opts.handler({ Records: wanted.map((r) => lambdaRecord(r, arn)) });
            failed = new Set(answer.batchItemFailures.map((f) => f.itemIdentifier ?? ''));
          }
        } catch (e) {
          // Handed over again on the next round, from the same position (at least once).
          log(`change feed: ${opts.name} handler failed, will retry the batch: ${e instanceof Error ? e.message : String(e)}`);
          return true;
        }
        // As Lambda does with partial batch failures: keep the position before the first failed record.
        const firstFailed = records.findIndex((r) => failed.has(r.dynamodb?.SequenceNumber ?? ''));
        const taken = firstFailed < 0 ? records.length : firstFailed;
        if (taken > 0) {
          checkpoint.shards[id] = { seq: records[taken - 1]!.dynamodb!.SequenceNumber! };
          // A page the filters passed over whole (a check's counter writes) is kept at most once a
          // second: read again after a kill, it is only passed over again. Saved on every page, it
          // was a file write and rename per consumer under load (BENCHMARKS.md "quota contention").
          if (wanted.length || Date.now() - savedAt >= (opts.passedOverSaveMs ?? PASSED_OVER_SAVE_MS)) save();
        }
        if (firstFailed >= 0) {
          log(`change feed: ${opts.name}: ${failed.size} record(s) failed, handed over again from ${records[firstFailed]!.dynamodb?.SequenceNumber}`);
          return true;
        }
      }
      if (page.ended) {
        shards = undefined;
        checkpoint.shards[id] = { ...checkpoint.shards[id], done: true };
        save();
        return busy;
      }
      if (records.length < batch) return busy;
    }
  }

  /** One round over every shard; answers whether any had something to hand over (readShard). */
  async function pollStream(): Promise<boolean> {
    streamArn ??= await findStream();
    if (!streamArn) return false;
    if (!shards || Date.now() - shards.at > SHARDS_KEPT_MS) shards = { list: await reader.shardsOf(streamArn), at: Date.now() };
    let busy = false;
    for (const shard of shards.list) {
      if (opts.stopped()) return true;
      if (checkpoint.shards[shard]?.done) continue;
      if (await readShard(streamArn, shard)) busy = true;
    }
    return busy;
  }
  return pollStream;
}

/**
 * The attempt queue's worker, as the cloud's (functions/hooks/attempt-queue.ts): an invocation of
 * its own per message, so its lines name the attempt queue, never the work that queued it.
 */
const attemptWorker = observed('attempt-queue', (m: AttemptMessage) => runQueuedAttempt(m));

/**
 * A step run every `every` ms, and at once for whoever asks for a round: `round()` resolves with
 * what a run of the step that started after the call answered (true: it found work; a step that
 * threw found work too, since it did not finish it). Waking early changes nothing but the timing.
 */
export function repeating(work: string, what: string, every: number, step: () => Promise<boolean>, log: (msg: string) => void, stopped: () => boolean) {
  let asked: Array<{ resolve: (busy: boolean) => void; reject: (e: Error) => void }> = [];
  let wake: (() => void) | undefined;
  // The loop is the work of its cloud counterpart (a stream consumer, the queue's delayed messages),
  // so its own lines carry that name and never a request's, whatever runs beside it.
  const running = runAs({ route: work }, async () => {
    while (!stopped()) {
      const served = asked;
      asked = [];
      let busy: boolean;
      try {
        busy = await step();
      } catch (e) {
        busy = true;
        if (!stopped()) log(`change feed: ${what} failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      for (const w of served) w.resolve(busy);
      if (stopped() || asked.length) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, every);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
    for (const w of asked.splice(0)) w.reject(new Error('the change feed stopped'));
  });
  return {
    running,
    round: () =>
      new Promise<boolean>((resolve, reject) => {
        if (stopped()) return reject(new Error('the change feed stopped'));
        asked.push({ resolve, reject });
        wake?.();
      }),
    wake: () => wake?.(),
  };
}

export interface ChangeFeed {
  /** Stops reading, after the batches in hand. */
  stop(): Promise<void>;
  /**
   * Resolves once the feed has done all the work the table held when it was called: each consumer
   * has read every shard to its end, every attempt those records queued has finished, and the due
   * index has nothing due now. The rounds run at once (not at the next poll), and again until one
   * finds nothing, since handlers and attempts write to the table too. A delivery due later (a
   * retry's wait) is not waited for. What a test asks before it asserts that nothing else arrives;
   * it never resolves while a record keeps failing, and rejects once the feed is stopped.
   */
  caughtUp(): Promise<void>;
}

/** Starts reading: the stream into both consumers, the due index into the attempt queue. */
export function startChangeFeed(opts: ChangeFeedOptions): ChangeFeed {
  const reader = streamReader(opts.endpoint);
  const log = opts.log ?? ((m: string) => logger.warn(m));
  let stopped = false;
  const isStopped = () => stopped;
  const consumer = (name: string, handler: StreamHandler, filters: readonly Pattern[], checkpointFile: string | undefined, batch?: number) =>
    streamConsumer(reader, {
      tableName: opts.tableName,
      name,
      handler,
      filters,
      checkpointFile,
      log,
      stopped: isStopped,
      batch,
    });

  const attempts = new FairQueue<AttemptMessage>({
    perGroup: WEBHOOK_LIMITS.attemptsInFlightPerOrg,
    total: WORKERS,
    groupOf: (m) => m.org_id,
    idOf: (m) => `${m.org_id}\n${m.hook_id}\n${m.id}`,
    run: attemptWorker,
    onError: (m, e) =>
      runAs({ route: 'attempt-queue' }, () => log(`change feed: attempt of delivery ${m.id} failed: ${e instanceof Error ? e.message : String(e)}`)),
  });
  const releaseQueue = useInProcessQueue((m) => attempts.push(m));
  const pollMs = opts.pollMs ?? 250;
  const loop = (work: string, what: string, every: number, step: () => Promise<boolean>) => repeating(work, what, every, step, log, isStopped);
  const deliveries = loop(
    'change-feed',
    'reading the stream',
    pollMs,
    consumer('webhook delivery', deliver, STREAM_CONSUMERS.webhookRouting, opts.checkpointFile),
  );
  const audit = loop(
    'audit-trail',
    'reading the stream into the audit trail',
    pollMs,
    consumer('audit trail', recordAudit, STREAM_CONSUMERS.audit, opts.auditCheckpointFile),
  );
  // Every allowed check writes a record this consumer reads: it reads them as the cloud's mapping
  // hands them over (1,000 at a time, a batching window of about a second), so it takes little
  // from the checks themselves on the stage's one process.
  const usage = loop(
    'usage-count',
    'reading the stream into the usage figures',
    Math.max(pollMs, USAGE_POLL_MS),
    consumer('usage figures', countUsage, STREAM_CONSUMERS.usage, opts.usageCheckpointFile, 1000),
  );
  // Each move of an offboarding run hands it to the worker, as the cloud's mapping does.
  const offboarding = loop(
    'offboarding',
    'offboarding organisations',
    Math.max(pollMs, USAGE_POLL_MS),
    consumer('offboarding', offboard, STREAM_CONSUMERS.offboarding, opts.offboardingCheckpointFile),
  );
  const imports = loop(
    'import',
    'importing organisations',
    Math.max(pollMs, USAGE_POLL_MS),
    consumer('import', importOn, STREAM_CONSUMERS.imports, opts.importCheckpointFile),
  );
  const due = loop('attempt-queue', 'queueing due deliveries', opts.dueMs ?? 1000, async () => (await queueDueDeliveries()) > 0);
  const loops = [deliveries, audit, usage, offboarding, imports, due];
  const running = Promise.all(loops.map((l) => l.running));

  return {
    async stop() {
      stopped = true;
      for (const l of loops) l.wake();
      await running;
      // Attempts under way finish on their own; one cut short stays pending and is attempted after the
      // next start (the due index finds it), as is a message the stopped queue no longer takes.
      attempts.stop();
      releaseQueue();
      reader.close();
    },
    async caughtUp() {
      for (;;) {
        await attempts.idle();
        const busy = await Promise.all([deliveries.round(), audit.round(), usage.round()]);
        busy.push(await due.round());
        // Nothing found, and no attempt started meanwhile: nothing written so far is left to do.
        if (!busy.includes(true) && attempts.size === 0) return;
      }
    },
  };
}
