import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { counterExpiry, planIngest, type CounterDelta, type CounterItem, type DayRange, type KeyInfo } from '../domain/analytics';
import { mapLimit } from '../domain/concurrency';
import { sha256Hex } from '../domain/hashing';
import type { AnalyticsRecord } from '../schemas/analytics';
import { ddb, tableName } from './client';
import { getKeySessions } from './gw-keys';
import { isConditionFailure } from './items';
import { TTL_ATTRIBUTE } from './table';

/**
 * Hourly activity counters of a key: one partition per key, sorted by hour, so a date range is
 * one Query with `SK BETWEEN`. Paths hold `/` and may be long, so the sort key carries a hash of
 * the path (128 bits) and the clear path is an attribute.
 */
export const activityKeys = {
  partition: (keyHash: string) => `KACT#${keyHash}`,
  counter: (d: Pick<CounterDelta, 'key_hash' | 'hour' | 'api_id' | 'path'>) => ({
    PK: `KACT#${d.key_hash}`,
    SK: `${d.hour}#${d.api_id}#${sha256Hex(d.path).slice(0, 32)}`,
  }),
  /** Sort keys of whole days: `T24` sorts after every hour of the last day and before the next day. */
  range: (r: DayRange) => ({ low: `${r.from}T00`, high: `${r.to}T24` }),
};

/** Parallel writes per call: a full call of 1000 new counters finishes in seconds. */
const WRITERS = 25;

type Key = { PK: string; SK: string };

/** Sets `field` only when the stored value is absent or worse; losing the race is fine. */
async function setIfBetter(key: Key, field: string, value: number | string, better: '<' | '>', also: Record<string, string> = {}) {
  const names: Record<string, string> = { '#f': field };
  const values: Record<string, unknown> = { ':v': value };
  const sets = ['#f = :v'];
  Object.entries(also).forEach(([k, v], i) => {
    names[`#a${i}`] = k;
    values[`:a${i}`] = v;
    sets.push(`#a${i} = :a${i}`);
  });
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
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
  }
}

/**
 * Adds one call's sums to a counter with atomic ADDs (no read-modify-write, so concurrent calls
 * lose nothing). The old values come back with the ADD, so the conditional min/max/last-hit
 * updates are only sent when this call's value can improve on them.
 */
async function writeCounter(d: CounterDelta): Promise<void> {
  const key = activityKeys.counter(d);
  const out = await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression:
        'ADD #hits :hits, #success :success, #error :error, #ls :ls, #us :us, #rs :rs ' +
        'SET #entity = :entity, #kh = :kh, #api = :api, #path = :path, #hour = :hour, #exp = :exp' +
        // A name for a counter that has none yet; later names come with the latest hit below.
        (d.api_name ? ', #name = if_not_exists(#name, :name)' : ''),
      ExpressionAttributeNames: {
        '#hits': 'hits', '#success': 'success', '#error': 'error', '#ls': 'latency_sum', '#us': 'upstream_latency_sum',
        '#rs': 'request_time_sum', '#entity': 'entity', '#kh': 'key_hash', '#api': 'api_id', '#path': 'path', '#hour': 'hour', '#exp': TTL_ATTRIBUTE,
        ...(d.api_name ? { '#name': 'api_name' } : {}),
      },
      ExpressionAttributeValues: {
        ':hits': d.hits, ':success': d.success, ':error': d.error, ':ls': d.latency_sum, ':us': d.upstream_latency_sum,
        ':rs': d.request_time_sum, ':entity': 'key_activity', ':kh': d.key_hash, ':api': d.api_id, ':path': d.path,
        ':hour': d.hour, ':exp': counterExpiry(d.hour), ...(d.api_name ? { ':name': d.api_name } : {}),
      },
      ReturnValues: 'ALL_OLD',
    }),
  );
  const old = out.Attributes ?? {};
  const beats = (field: string, v: number | string, better: '<' | '>') => {
    const was = old[field] as number | string | undefined;
    return was === undefined || (better === '<' ? v < was : v > was);
  };
  // The latest hit also carries the names current at that moment.
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
  await Promise.all(bounds.filter(([f, v, b]) => beats(f, v, b)).map(([f, v, b, also]) => setIfBetter(key, f, v, b, also)));
}

export interface IngestResult {
  stored: number;
  unknown_keys: number;
  counters: number;
}

/** Adds a call's records to the hourly counters of their keys; unknown keys are counted only. */
export async function ingestRecords(records: readonly AnalyticsRecord[]): Promise<IngestResult> {
  const hashes = [...new Set(records.map((r) => r.key_hash))];
  const keyInfo: Map<string, KeyInfo> = await getKeySessions(hashes);
  const plan = planIngest(records, (h) => keyInfo.get(h));
  await mapLimit(plan.deltas, WRITERS, writeCounter);
  return { stored: plan.stored, unknown_keys: plan.unknown, counters: plan.deltas.length };
}

/** Every hourly counter of a key in whole days `range`: one Query, followed page by page. */
export async function readKeyCounters(keyHash: string, range: DayRange): Promise<CounterItem[]> {
  const { low, high } = activityKeys.range(range);
  const items: CounterItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await ddb().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :low AND :high',
        ExpressionAttributeValues: { ':pk': activityKeys.partition(keyHash), ':low': low, ':high': high },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...((out.Items ?? []) as CounterItem[]));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}
