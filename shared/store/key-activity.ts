import { counterExpiry, type CounterDelta, type CounterItem, type DayRange } from '../domain/analytics';
import { mapLimit } from '../lib/concurrency';
import { slicesOf } from '../lib/slices';
import { sha256Hex } from '../lib/hashing';
import { tableName } from './db/client';
import { batchGet, queryAll } from './db/items';
import type { StorageKey } from './db/storage-key';
import { TTL_ATTRIBUTE } from './db/table';
import { defineEntity } from './db/entity';
import type { TxItem } from './db/transactions';
import { setIfBetter } from './db/set-if-better';

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

/**
 * One counter's share of a call: atomic ADDs of its sums (no read-modify-write, so concurrent
 * calls lose nothing), and, for a counter this call creates, its first minima, maxima, last hit
 * and names. Existing counters get those from `saveCounterBounds`, which only ever improves them.
 */
export function counterUpdate(d: CounterDelta): TxItem {
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

const BOUND_FIELDS = ['min_latency', 'max_latency', 'min_upstream_latency', 'max_upstream_latency', 'last_hit'] as const;

/**
 * Brings each counter's minima, maxima and last hit (with the names current at it) up to this
 * call's. These only ever improve, so reading them first (eventually consistent is enough: a stale
 * value is only a worse one) leaves out the writes that could not win, and running this again
 * after a retry changes nothing twice.
 */
export async function saveCounterBounds(deltas: readonly CounterDelta[]): Promise<void> {
  const stored = new Map<string, Record<string, unknown>>();
  const pages = slicesOf(
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

/** Every hourly counter of a key in whole days `range`: one Query, followed page by page. */
export async function loadKeyCounters(keyHash: string, range: DayRange): Promise<CounterItem[]> {
  const { low, high } = activityKeys.range(range);
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :low AND :high',
    ExpressionAttributeValues: { ':pk': activityKeys.partition(keyHash), ':low': low, ':high': high },
  });
  return items as unknown as CounterItem[];
}

// Keyed here; written by the functions of this module and by the batches' transactions (./analytics-batches.ts).
defineEntity({ name: 'key_activity', key: counterKey });
