/**
 * How the local stages read a table's stream on DynamoDB Local (the change feed of `npm start`,
 * the emulator's stream mappings). Each consumer keeps its own position, as an event source
 * mapping does, but a shard's records are read from DynamoDB Local once for all of them: every
 * check writes a counter record, and five or six consumers each reading it back cost DynamoDB
 * Local that many reads, and this process that many parses, of a record most of them drop.
 *
 * A shard's window holds what was read of it, from where its first reader stood; a consumer whose
 * position is in the window is served from it (the window reads on when the consumer has taken
 * all of it), one further behind reads alone until it reaches the window. The window keeps the
 * records from its slowest reader's position on (a failed batch is read again from there), at
 * most WINDOW_RECORDS: a consumer further behind reads alone.
 *
 * Records are the JSON that GetRecords answers, which is the shape Lambda hands a function
 * (attribute values in their wire form, binary as base64 text): nothing converts them, so a
 * consumer's filters judge that JSON and a record none takes is passed over as parsed.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { DynamoDBRecord } from 'aws-lambda';

/** A failure DynamoDB Local answered: `name` is its type (ExpiredIteratorException, TrimmedDataAccessException, ...). */
export class StreamError extends Error {
  constructor(type: string, message: string) {
    super(message);
    this.name = type;
  }
}

/** What a consumer is handed of one shard: the records after its position, and whether they reach the shard's end. */
export interface Page {
  records: DynamoDBRecord[];
  /** The shard is closed and nothing follows these records. */
  ended: boolean;
}

export interface StreamReader {
  /** The table's stream, if it has one. */
  streamOf(tableName: string): Promise<string | undefined>;
  /** The stream's shards, oldest first. */
  shardsOf(streamArn: string): Promise<string[]>;
  /**
   * Up to `limit` records of the shard after `after` (a sequence number; undefined: from the
   * shard's oldest record) for `consumer`, a name of the reader's own for each consumer.
   */
  read(consumer: string, streamArn: string, shardId: string, after: string | undefined, limit: number): Promise<Page>;
  /** Closes its connections; reads after it fail. */
  close(): void;
}

/** Records a shard's window keeps for its slowest reader, at most: about five seconds of checks on a busy local stage. */
const WINDOW_RECORDS = 5_000;
/** What one GetRecords may hand over. */
const GET_RECORDS_MAX = 1_000;

const seqOf = (r: DynamoDBRecord): string => r.dynamodb!.SequenceNumber!;

/** One shard's records as read for every consumer, oldest first, after `start`. */
interface ShardWindow {
  /** The position the window starts after (undefined: the shard's oldest record). */
  start: string | undefined;
  records: DynamoDBRecord[];
  /** Index in `records` of each record by its sequence number, offset by `dropped`. */
  at: Map<string, number>;
  dropped: number;
  /** Where the next read of the window goes on; undefined before the first and after a failure. */
  iterator: string | undefined;
  ended: boolean;
  /** Each reader's position when it last read from the window: what the window still keeps for it. */
  readers: Map<string, string | undefined>;
  filling: Promise<void> | undefined;
}

/** A reader of DynamoDB Local's stream API at `endpoint`. */
export function streamReader(endpoint: string): StreamReader {
  const url = new URL(endpoint);
  const https = url.protocol === 'https:';
  const agent = https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = https ? httpsRequest : httpRequest;
  const windows = new Map<string, ShardWindow>();
  /** Where a consumer reading alone goes on: per consumer and shard, the position it reached and the iterator after it. */
  const alone = new Map<string, { after: string | undefined; iterator: string }>();

  /**
   * One call of the stream API. DynamoDB Local reads no signature, but takes the access key and
   * region from the credential scope: the ones the stages' clients use.
   */
  function call<T>(action: string, input: object): Promise<T> {
    const body = JSON.stringify(input);
    return new Promise<T>((resolve, reject) => {
      const req = send(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/x-amz-json-1.0',
            'content-length': Buffer.byteLength(body),
            'x-amz-target': `DynamoDBStreams_20120810.${action}`,
            authorization: 'AWS4-HMAC-SHA256 Credential=local/20000101/local/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            try {
              const text = Buffer.concat(chunks).toString('utf8');
              const out = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
              if (res.statusCode === 200) return resolve(out as T);
              const type = String(out.__type ?? `HTTP ${res.statusCode}`)
                .split('#')
                .pop()!;
              reject(new StreamError(type, String(out.Message ?? out.message ?? text)));
            } catch (e) {
              reject(e);
            }
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  const iteratorAt = async (streamArn: string, shardId: string, after: string | undefined): Promise<string> =>
    (
      await call<{ ShardIterator: string }>('GetShardIterator', {
        StreamArn: streamArn,
        ShardId: shardId,
        ...(after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after } : { ShardIteratorType: 'TRIM_HORIZON' }),
      })
    ).ShardIterator;

  const getRecords = (iterator: string, limit: number) =>
    call<{ Records?: DynamoDBRecord[]; NextShardIterator?: string }>('GetRecords', { ShardIterator: iterator, Limit: limit });

  /** Where in the window a reader at `after` goes on, or undefined when `after` is not in it. */
  function indexAfter(w: ShardWindow, after: string | undefined): number | undefined {
    if (after === w.start) return 0;
    if (after === undefined) return undefined;
    const i = w.at.get(after);
    return i === undefined ? undefined : i - w.dropped + 1;
  }

  /** Drops what every reader of the window has passed, and past WINDOW_RECORDS the oldest records anyway. */
  function trim(w: ShardWindow): void {
    let passed = w.records.length;
    for (const position of w.readers.values()) passed = Math.min(passed, indexAfter(w, position) ?? passed);
    const drop = Math.max(passed, w.records.length - WINDOW_RECORDS);
    if (drop <= 0) return;
    for (const r of w.records.slice(0, drop)) w.at.delete(seqOf(r));
    w.start = seqOf(w.records[drop - 1]!);
    w.records.splice(0, drop);
    w.dropped += drop;
    // A reader left behind reads alone from now on, until it reaches the window again.
    for (const [reader, position] of w.readers) if (indexAfter(w, position) === undefined) w.readers.delete(reader);
  }

  /** Reads on from the window's end: one GetRecords for every reader waiting on it. */
  function fill(key: string, streamArn: string, shardId: string, w: ShardWindow): Promise<void> {
    w.filling ??= (async () => {
      try {
        const last = w.records.at(-1);
        w.iterator ??= await iteratorAt(streamArn, shardId, last ? seqOf(last) : w.start);
        const out = await getRecords(w.iterator, GET_RECORDS_MAX);
        for (const r of out.Records ?? []) w.at.set(seqOf(r), w.dropped + w.records.push(r) - 1);
        w.iterator = out.NextShardIterator;
        w.ended = !out.NextShardIterator;
      } catch (e) {
        // An expired or trimmed position: the window starts again from the next reader's.
        windows.delete(key);
        throw e;
      } finally {
        w.filling = undefined;
      }
    })();
    return w.filling;
  }

  /** A read of a consumer outside the window: its own GetRecords, from where its last one ended when it can. */
  async function readAlone(consumer: string, streamArn: string, shardId: string, after: string | undefined, limit: number): Promise<Page> {
    const key = `${consumer}\n${streamArn}\n${shardId}`;
    const known = alone.get(key);
    alone.delete(key);
    const iterator = known && known.after === after ? known.iterator : await iteratorAt(streamArn, shardId, after);
    const out = await getRecords(iterator, limit);
    const records = out.Records ?? [];
    const last = records.at(-1);
    if (out.NextShardIterator) alone.set(key, { after: last ? seqOf(last) : after, iterator: out.NextShardIterator });
    return { records, ended: !out.NextShardIterator };
  }

  return {
    async streamOf(tableName) {
      const out = await call<{ Streams?: Array<{ StreamArn: string }> }>('ListStreams', { TableName: tableName });
      return out.Streams?.[0]?.StreamArn;
    },
    async shardsOf(streamArn) {
      const shards: string[] = [];
      let start: string | undefined;
      do {
        const out = await call<{ StreamDescription?: { Shards?: Array<{ ShardId: string }>; LastEvaluatedShardId?: string } }>('DescribeStream', {
          StreamArn: streamArn,
          ...(start ? { ExclusiveStartShardId: start } : {}),
        });
        shards.push(...(out.StreamDescription?.Shards ?? []).map((s) => s.ShardId));
        start = out.StreamDescription?.LastEvaluatedShardId;
      } while (start);
      return shards;
    },
    async read(consumer, streamArn, shardId, after, limit) {
      const key = `${streamArn}\n${shardId}`;
      let w = windows.get(key);
      if (!w) {
        w = { start: after, records: [], at: new Map(), dropped: 0, iterator: undefined, ended: false, readers: new Map(), filling: undefined };
        windows.set(key, w);
      }
      let from = indexAfter(w, after);
      if (from !== undefined && from + limit > w.records.length && !w.ended) {
        await fill(key, streamArn, shardId, w);
        from = indexAfter(w, after);
      }
      if (from === undefined) {
        w.readers.delete(consumer);
        return readAlone(consumer, streamArn, shardId, after, limit);
      }
      w.readers.set(consumer, after);
      const records = w.records.slice(from, from + limit);
      const ended = w.ended && from + records.length === w.records.length;
      trim(w);
      return { records, ended };
    },
    close() {
      agent.destroy();
    },
  };
}
