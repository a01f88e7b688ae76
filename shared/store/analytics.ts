import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { chunksOf, counterExpiry, type CounterDelta, type CounterItem, type DayRange } from '../domain/analytics';
import type { UsageDelta, UsageItem } from '../domain/usage';
import { mapLimit } from '../domain/concurrency';
import { randomHex, sha256Hex } from '../domain/hashing';
import { Unprocessable } from '../errors';
import { backoff } from './db/backoff';
import { ddb, tableName } from './db/client';
import { batchGet, getItem, isConditionFailure, queryAll } from './db/items';
import type { StorageKey } from './db/storage-key';
import { TTL_ATTRIBUTE } from './db/table';
import { defineEntity } from './db/entity';
import { putOp, transactWrite, type TxItem } from './db/transactions';

/**
 * Hourly activity counters of a key: one partition per key, sorted by hour, so a date range is
 * one Query with `SK BETWEEN`. Paths hold `/` and may be long, so the sort key carries a hash of
 * the path (128 bits) and the clear path is an attribute.
 */
/** One hourly counter of a key, for one API and path. */
const counterKey = (keyHash: string, hour: string, apiId: string, path: string): StorageKey => ({
  PK: `KACT#${keyHash}`,
  SK: `${hour}#${apiId}#${sha256Hex(path).slice(0, 32)}`,
});

/**
 * Hourly usage of an API as an organisation's keys reported it: one partition per (organisation,
 * API), sorted by hour, so a chart's range is one Query with `SK BETWEEN`. The organisation is
 * part of the key, so one organisation's traffic on an id never shows in another's chart.
 */
const usageKey = (orgId: string, apiId: string, hour: string): StorageKey => ({ PK: `AUSE#${orgId}#${apiId}`, SK: hour });

export const activityKeys = {
  partition: (keyHash: string) => `KACT#${keyHash}`,
  counter: (d: Pick<CounterDelta, 'key_hash' | 'hour' | 'api_id' | 'path'>): StorageKey => counterKey(d.key_hash, d.hour, d.api_id, d.path),
  /** Sort keys of whole days: `T24` sorts after every hour of the last day and before the next day. */
  range: (r: DayRange) => ({ low: `${r.from}T00`, high: `${r.to}T24` }),
};

/** BatchGetItem pages in flight at once while the bounds are read. */
const BOUND_READERS = 4;
/** Conditional min/max/last-hit updates in flight at once. */
const BOUND_WRITERS = 16;
/** How long a batch id is remembered (a retry after that counts again), like an Idempotency-Key. */
const BATCH_TTL_SECONDS = 24 * 3600;

type Key = StorageKey;

const isTransactionConflict = (e: unknown) => e instanceof Error && e.name === 'TransactionConflictException';

/**
 * Sets `field` only when the stored value is absent or worse; losing the race is fine. A plain
 * write on a counter that another call's transaction holds at that moment is refused with a
 * TransactionConflict (which the SDK does not retry), so that is retried here.
 */
async function setIfBetter(key: Key, field: string, value: number | string, better: '<' | '>', also: Record<string, string> = {}) {
  const names: Record<string, string> = { '#f': field };
  const values: Record<string, unknown> = { ':v': value };
  const sets = ['#f = :v'];
  Object.entries(also).forEach(([k, v], i) => {
    names[`#a${i}`] = k;
    values[`:a${i}`] = v;
    sets.push(`#a${i} = :a${i}`);
  });
  for (let attempt = 0; ; attempt++) {
    try {
      await ddb().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: `SET ${sets.join(', ')}`,
          // Stored minimum above the new value (or maximum below it): the new value wins.
          ConditionExpression: `attribute_not_exists(#f) OR #f ${better === '<' ? '>' : '<'} :v`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return;
    } catch (e) {
      if (isConditionFailure(e)) return;
      if (!isTransactionConflict(e) || attempt >= 12) throw e;
      await backoff(attempt);
    }
  }
}

/**
 * One counter's share of a call: atomic ADDs of its sums (no read-modify-write, so concurrent
 * calls lose nothing), and, for a counter this call creates, its first minima, maxima, last hit
 * and names. Existing counters get those from `applyBounds`, which only ever improves them.
 */
function counterUpdate(d: CounterDelta): TxItem {
  const names: Record<string, string> = {
    '#hits': 'hits',
    '#success': 'success',
    '#error': 'error',
    '#ls': 'latency_sum',
    '#us': 'upstream_latency_sum',
    '#rs': 'request_time_sum',
    '#entity': 'entity',
    '#kh': 'key_hash',
    '#api': 'api_id',
    '#path': 'path',
    '#hour': 'hour',
    '#exp': TTL_ATTRIBUTE,
  };
  const values: Record<string, unknown> = {
    ':hits': d.hits,
    ':success': d.success,
    ':error': d.error,
    ':ls': d.latency_sum,
    ':us': d.upstream_latency_sum,
    ':rs': d.request_time_sum,
    ':entity': 'key_activity',
    ':kh': d.key_hash,
    ':api': d.api_id,
    ':path': d.path,
    ':hour': d.hour,
    ':exp': counterExpiry(d.hour),
  };
  const sets = ['#entity = :entity', '#kh = :kh', '#api = :api', '#path = :path', '#hour = :hour', '#exp = :exp'];
  const firsts: Record<string, number | string | undefined> = {
    min_latency: d.min_latency,
    max_latency: d.max_latency,
    min_upstream_latency: d.min_upstream_latency,
    max_upstream_latency: d.max_upstream_latency,
    last_hit: d.last_hit,
    api_name: d.api_name,
    alias: d.alias,
  };
  Object.entries(firsts).forEach(([field, value], i) => {
    if (value === undefined) return;
    names[`#f${i}`] = field;
    values[`:f${i}`] = value;
    sets.push(`#f${i} = if_not_exists(#f${i}, :f${i})`);
  });
  return {
    op: {
      Update: {
        TableName: tableName(),
        Key: activityKeys.counter(d),
        UpdateExpression: `ADD #hits :hits, #success :success, #error :error, #ls :ls, #us :us, #rs :rs SET ${sets.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  };
}

/** One (organisation, API, hour) usage counter's share of a call: atomic ADDs, no read first. */
function usageUpdate(d: UsageDelta): TxItem {
  return {
    op: {
      Update: {
        TableName: tableName(),
        Key: usageKey(d.org_id, d.api_id, d.hour),
        UpdateExpression:
          'ADD #hits :hits, #success :success, #error :error, #ls :ls, #us :us SET #entity = :entity, #org = :org, #api = :api, #hour = :hour, #exp = :exp',
        ExpressionAttributeNames: {
          '#hits': 'hits',
          '#success': 'success',
          '#error': 'error',
          '#ls': 'latency_sum',
          '#us': 'upstream_latency_sum',
          '#entity': 'entity',
          '#org': 'org_id',
          '#api': 'api_id',
          '#hour': 'hour',
          '#exp': TTL_ATTRIBUTE,
        },
        ExpressionAttributeValues: {
          ':hits': d.hits,
          ':success': d.success,
          ':error': d.error,
          ':ls': d.latency_sum,
          ':us': d.upstream_latency_sum,
          ':entity': 'api_usage',
          ':org': d.org_id,
          ':api': d.api_id,
          ':hour': d.hour,
          ':exp': counterExpiry(d.hour),
        },
      },
    },
  };
}

/**
 * Brings each usage counter's largest latency up to this call's (only ever raised, so running it
 * again after a retry changes nothing twice).
 */
export async function applyUsageMaxima(deltas: readonly UsageDelta[]): Promise<void> {
  await mapLimit([...deltas], BOUND_WRITERS, (d) => setIfBetter(usageKey(d.org_id, d.api_id, d.hour), 'max_latency', d.max_latency, '>'));
}

/** Every hourly usage counter of an organisation's API from `firstHour` to `lastHour` inclusive: one Query, followed page by page. */
export async function readApiUsage(orgId: string, apiId: string, firstHour: string, lastHour: string): Promise<UsageItem[]> {
  const pk = usageKey(orgId, apiId, firstHour).PK;
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :low AND :high',
    ExpressionAttributeValues: { ':pk': pk, ':low': firstHour, ':high': lastHour },
  });
  return items as unknown as UsageItem[];
}

const BOUND_FIELDS = ['min_latency', 'max_latency', 'min_upstream_latency', 'max_upstream_latency', 'last_hit'] as const;

/**
 * Brings each counter's minima, maxima and last hit (with the names current at it) up to this
 * call's. These only ever improve, so reading them first (eventually consistent is enough: a stale
 * value is only a worse one) leaves out the writes that could not win, and running this again
 * after a retry changes nothing twice.
 */
export async function applyBounds(deltas: readonly CounterDelta[]): Promise<void> {
  const stored = new Map<string, Record<string, unknown>>();
  const pages = chunksOf(
    deltas.map((d) => activityKeys.counter(d)),
    100,
  );
  const read = await mapLimit(pages, BOUND_READERS, (keys) => batchGet(keys, false, ['PK', 'SK', ...BOUND_FIELDS]));
  for (const it of read.flat()) stored.set(`${it.PK}|${it.SK}`, it);
  const writes: Array<() => Promise<void>> = [];
  for (const d of deltas) {
    const key = activityKeys.counter(d);
    const old = stored.get(`${key.PK}|${key.SK}`) ?? {};
    const latest: Record<string, string> = {};
    if (d.api_name) latest.api_name = d.api_name;
    if (d.alias) latest.alias = d.alias;
    const bounds: Array<[string, number | string, '<' | '>', Record<string, string>?]> = [
      ['min_latency', d.min_latency, '<'],
      ['max_latency', d.max_latency, '>'],
      ['min_upstream_latency', d.min_upstream_latency, '<'],
      ['max_upstream_latency', d.max_upstream_latency, '>'],
      ['last_hit', d.last_hit, '>', latest],
    ];
    for (const [field, value, better, also] of bounds) {
      const was = old[field] as number | string | undefined;
      if (was === undefined || (better === '<' ? value < was : value > was)) writes.push(() => setIfBetter(key, field, value, better, also));
    }
  }
  await mapLimit(writes, BOUND_WRITERS, (w) => w());
}

/**
 * Batch bookkeeping: the batch item holds what the first attempt decided (its records'
 * fingerprint, which records it refused, and a run id), and each applied transaction leaves a
 * marker under the run id. A new run id after the batch expires keeps lingering markers (TTL
 * deletes lazily) from hiding a reused id's chunks.
 */
const batchKeys = {
  batch: (batchId: string): StorageKey => ({ PK: `ANBATCH#${batchId}`, SK: 'BATCH' }),
  chunk: (batchId: string, run: string, n: number): StorageKey => ({ PK: `ANBATCH#${batchId}`, SK: `CHUNK#${run}#${n}` }),
};

// Keyed here; written by the functions of this module.
defineEntity({ name: 'key_activity', key: counterKey });
defineEntity({ name: 'api_usage', key: usageKey });
defineEntity({ name: 'analytics_batch', key: batchKeys.batch });
defineEntity({ name: 'analytics_chunk', key: batchKeys.chunk });

export interface BatchClaim {
  run: string;
  refused: number[];
  /** An earlier attempt claimed the batch, so some of its chunks may be applied already. */
  retry: boolean;
}

/**
 * Claims a batch id for these records, or finds the claim of an earlier attempt of the same
 * batch (whose refusals then apply). The same id with other records is 422.
 */
export async function claimBatch(batchId: string, fingerprint: string, refused: number[]): Promise<BatchClaim> {
  const now = Math.floor(Date.now() / 1000);
  const run = randomHex(8);
  try {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...batchKeys.batch(batchId), entity: 'analytics_batch', fingerprint, run, refused, [TTL_ATTRIBUTE]: now + BATCH_TTL_SECONDS },
        // An expired batch (TTL deletes lazily) counts as absent.
        ConditionExpression: 'attribute_not_exists(PK) OR #exp < :now',
        ExpressionAttributeNames: { '#exp': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':now': now },
      }),
    );
    return { run, refused, retry: false };
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
    // Only a retry gets here: one more read to learn what its first attempt decided.
    const old = await getItem(batchKeys.batch(batchId), true);
    if (!old) return claimBatch(batchId, fingerprint, refused);
    if (old.fingerprint !== fingerprint) {
      throw new Unprocessable(`batch_id ${batchId} was already used with other records`, [
        { path: 'body.batch_id', message: 'already used with other records' },
      ]);
    }
    return { run: String(old.run), refused: (old.refused as number[] | undefined) ?? [], retry: true };
  }
}

/** Chunk `n` of the run `run` of a batch: where its marker goes. */
export interface BatchChunk {
  batchId: string;
  run: string;
  n: number;
}

/**
 * Writes one run of counter updates as one transaction. In a batch, the run's marker rides in
 * the same transaction: either the counters and the marker are stored, or neither. A marker that
 * exists already means an earlier attempt applied this run, which is then skipped.
 */
export async function writeChunk(deltas: readonly CounterDelta[] | { usage: readonly UsageDelta[] }, chunk: BatchChunk | undefined): Promise<void> {
  // A run holds either key counters or API usage counters (docs/reference/limits.md: one more ADD per (API, hour)).
  const updates = 'usage' in deltas ? deltas.usage.map(usageUpdate) : deltas.map(counterUpdate);
  if (!chunk) return transactWrite(updates);
  const marker = batchKeys.chunk(chunk.batchId, chunk.run, chunk.n);
  const expires = Math.floor(Date.now() / 1000) + BATCH_TTL_SECONDS;
  try {
    await transactWrite([{ op: putOp({ ...marker, entity: 'analytics_chunk', [TTL_ATTRIBUTE]: expires }, 'attribute_not_exists(PK)') }, ...updates]);
  } catch (e) {
    if (e instanceof TransactionCanceledException && e.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return;
    throw e;
  }
}

/** Chunk numbers of a run that an earlier attempt applied (one Query over the batch's markers). */
export async function appliedChunks(batchId: string, run: string): Promise<Set<number>> {
  const prefix = `CHUNK#${run}#`;
  const markers = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': batchKeys.batch(batchId).PK, ':prefix': prefix },
    ProjectionExpression: 'SK',
    ConsistentRead: true,
  });
  return new Set(markers.map((it) => Number(String(it.SK).slice(prefix.length))));
}

/** Every hourly counter of a key in whole days `range`: one Query, followed page by page. */
export async function readKeyCounters(keyHash: string, range: DayRange): Promise<CounterItem[]> {
  const { low, high } = activityKeys.range(range);
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :low AND :high',
    ExpressionAttributeValues: { ':pk': activityKeys.partition(keyHash), ':low': low, ':high': high },
  });
  return items as unknown as CounterItem[];
}
