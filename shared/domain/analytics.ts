/**
 * Key analytics without I/O: records are summed per hourly counter before they are written, and
 * the counters of a range are folded into one row per (API, path) when read.
 */
import { BadRequest } from '../errors';
import { sha256Hex } from '../lib/hashing';
import type { ActivityRow, AnalyticsRecord, KeyActivityParams } from '../schemas/analytics';

/** Longest range one activity read covers (contract §9). */
const MAX_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;

/** The UTC hour a timestamp falls in, as `yyyy-mm-ddThh` (sortable, so ranges are key ranges). */
export function hourOf(timestamp: string): string {
  return new Date(timestamp).toISOString().slice(0, 13);
}

/** Hourly counters are kept this long (DynamoDB TTL removes them after); longer than the 366-day query range. */
export const RETENTION_DAYS = 400;

/** TTL (epoch seconds) of the counter of an hour like `2026-11-22T13`. */
export function counterExpiry(hour: string): number {
  return Math.floor(Date.parse(`${hour}:00:00Z`) / 1000) + RETENTION_DAYS * 86_400;
}

/** Everything one write adds to one hourly counter of (key, hour, API, path). */
export type CounterDelta = Required<Omit<CounterItem, 'api_name' | 'alias'>> &
  Pick<CounterItem, 'api_name' | 'alias'> & {
    key_hash: string;
    hour: string;
  };

/**
 * Sums the records of each counter, so that a call writes every counter once however many of
 * its records fall into it. `apiName` supplies a name when a record carries none.
 */
export function summariseRecords(records: readonly AnalyticsRecord[], apiName: (r: AnalyticsRecord) => string | undefined = () => undefined): CounterDelta[] {
  const byCounter = new Map<string, CounterDelta>();
  for (const r of records) {
    const hour = hourOf(r.timestamp);
    const id = JSON.stringify([r.key_hash, hour, r.api_id, r.path]);
    const at = new Date(r.timestamp).toISOString();
    const ok = r.response_code < 400 ? 1 : 0;
    let d = byCounter.get(id);
    if (!d) {
      d = {
        key_hash: r.key_hash,
        hour,
        api_id: r.api_id,
        path: r.path,
        hits: 0,
        success: 0,
        error: 0,
        latency_sum: 0,
        upstream_latency_sum: 0,
        request_time_sum: 0,
        min_latency: r.latency.total,
        max_latency: r.latency.total,
        min_upstream_latency: r.latency.upstream,
        max_upstream_latency: r.latency.upstream,
        last_hit: at,
      };
      byCounter.set(id, d);
    }
    d.hits += 1;
    d.success += ok;
    d.error += 1 - ok;
    d.latency_sum += r.latency.total;
    d.upstream_latency_sum += r.latency.upstream;
    d.request_time_sum += r.request_time;
    d.min_latency = Math.min(d.min_latency, r.latency.total);
    d.max_latency = Math.max(d.max_latency, r.latency.total);
    d.min_upstream_latency = Math.min(d.min_upstream_latency, r.latency.upstream);
    d.max_upstream_latency = Math.max(d.max_upstream_latency, r.latency.upstream);
    // Names and alias follow the latest record that has them.
    if (at >= d.last_hit || d.api_name === undefined) {
      const name = r.api_name || apiName(r);
      if (name) d.api_name = name;
      if (r.alias) d.alias = r.alias;
    }
    if (at > d.last_hit) d.last_hit = at;
  }
  return [...byCounter.values()];
}

/** What ingestion needs to know of a key: its organisation and the API names it grants. */
export interface KeyInfo {
  org_id: string;
  access_rights?: Record<string, { api_name?: string } | undefined> | null;
}

/**
 * Indices of the records to refuse: a record whose key is unknown, or whose `org_id` names another
 * organisation than the key's, is counted, not stored.
 */
function refusedRecords(records: readonly AnalyticsRecord[], keyOf: (keyHash: string) => KeyInfo | undefined): number[] {
  const refused: number[] = [];
  records.forEach((r, i) => {
    const k = keyOf(r.key_hash);
    if (k === undefined || (r.org_id && k.org_id && r.org_id !== k.org_id)) refused.push(i);
  });
  return refused;
}

/**
 * Splits a call's records into counters to write and records to refuse. A retried batch passes
 * the refusals of its first attempt, so that it sums exactly the same counters in the same order
 * even if a key was created or deleted in between.
 */
export function planIngest(
  records: readonly AnalyticsRecord[],
  keyOf: (keyHash: string) => KeyInfo | undefined,
  refused: readonly number[] = refusedRecords(records, keyOf),
) {
  const skip = new Set(refused);
  const known = records.filter((_, i) => !skip.has(i));
  const deltas = summariseRecords(known, (r) => keyOf(r.key_hash)?.access_rights?.[r.api_id]?.api_name);
  return { deltas, stored: known.length, unknown: skip.size, refused: [...skip] };
}

/**
 * Counter updates per transaction of a batch: with the batch's marker item, one full
 * TransactWriteItems (100 items).
 */
export const COUNTERS_PER_CHUNK = 99;

/**
 * What a batch id stands for: its validated records (members the schema drops are left out, in
 * the schema's order), so a retry that sends the same records again matches and another batch
 * sent under the same id does not.
 */
export function batchFingerprint(records: readonly AnalyticsRecord[]): string {
  return sha256Hex(JSON.stringify(records));
}

export interface DayRange {
  /** First and last day, `yyyy-mm-dd`, inclusive. */
  from: string;
  to: string;
  days: number;
}

function dayOf(d: number, m: number, y: number, which: 'start' | 'End'): number {
  const t = Date.UTC(y, m - 1, d);
  const back = new Date(t);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) {
    throw new BadRequest(`${which === 'start' ? 'Start' : 'End'} date ${y}-${m}-${d} does not exist`, [
      { path: `params.${which}Day`, message: 'no such day in that month' },
    ]);
  }
  return t;
}

/** Whole days from start to end inclusive; 400 for a missing day, a reversed or too long range. */
export function activityRange(p: Omit<KeyActivityParams, 'keyHash'>): DayRange {
  const start = dayOf(p.startDay, p.startMonth, p.startYear, 'start');
  const end = dayOf(p.EndDay, p.EndMonth, p.EndYear, 'End');
  if (end < start) throw new BadRequest('The end date is before the start date', [{ path: 'params.EndDay', message: 'must not be before the start' }]);
  const days = (end - start) / DAY_MS + 1;
  if (days > MAX_RANGE_DAYS) {
    throw new BadRequest(`The range covers ${days} days; at most ${MAX_RANGE_DAYS} are allowed`, [
      { path: 'params.EndDay', message: `range longer than ${MAX_RANGE_DAYS} days` },
    ]);
  }
  const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
  return { from: iso(start), to: iso(end), days };
}

/** One stored hourly counter as the store reads it back. */
export interface CounterItem {
  api_id: string;
  api_name?: string;
  path: string;
  alias?: string;
  hits: number;
  success: number;
  error: number;
  latency_sum: number;
  upstream_latency_sum: number;
  request_time_sum: number;
  min_latency?: number;
  max_latency?: number;
  min_upstream_latency?: number;
  max_upstream_latency?: number;
  /** ISO instant (UTC, milliseconds), so that later instants compare greater as strings. */
  last_hit?: string;
}

interface Fold extends Required<Omit<CounterItem, 'api_name' | 'alias' | 'last_hit'>> {
  api_name: string;
  alias: string;
  last_hit: string;
}

const minOf = (a: number, b: number | undefined) => (b === undefined ? a : Math.min(a, b));
const maxOf = (a: number, b: number | undefined) => (b === undefined ? a : Math.max(a, b));
const avg = (sum: number, hits: number) => (hits > 0 ? sum / hits : 0);

/**
 * One row per (API, path) over the whole range: counters summed, latencies averaged by hits,
 * minimum of minima, maximum of maxima, latest hit. Busiest first, then by API and path.
 */
export function aggregateActivity(keyHash: string, items: readonly CounterItem[]): ActivityRow[] {
  const rows = new Map<string, Fold>();
  for (const it of items) {
    const id = JSON.stringify([it.api_id, it.path]);
    const last = it.last_hit ?? '';
    let f = rows.get(id);
    if (!f) {
      f = {
        api_id: it.api_id,
        path: it.path,
        api_name: '',
        alias: '',
        last_hit: '',
        hits: 0,
        success: 0,
        error: 0,
        latency_sum: 0,
        upstream_latency_sum: 0,
        request_time_sum: 0,
        min_latency: Infinity,
        max_latency: -Infinity,
        min_upstream_latency: Infinity,
        max_upstream_latency: -Infinity,
      };
      rows.set(id, f);
    }
    f.hits += it.hits;
    f.success += it.success;
    f.error += it.error;
    f.latency_sum += it.latency_sum;
    f.upstream_latency_sum += it.upstream_latency_sum;
    f.request_time_sum += it.request_time_sum;
    f.min_latency = minOf(f.min_latency, it.min_latency);
    f.max_latency = maxOf(f.max_latency, it.max_latency);
    f.min_upstream_latency = minOf(f.min_upstream_latency, it.min_upstream_latency);
    f.max_upstream_latency = maxOf(f.max_upstream_latency, it.max_upstream_latency);
    if (last >= f.last_hit) {
      f.last_hit = last;
      if (it.api_name) f.api_name = it.api_name;
      if (it.alias) f.alias = it.alias;
    }
  }
  const finite = (n: number) => (Number.isFinite(n) ? n : 0);
  return [...rows.values()]
    .sort((a, b) => b.hits - a.hits || a.api_id.localeCompare(b.api_id) || a.path.localeCompare(b.path))
    .map((f) => ({
      hits: f.hits,
      success: f.success,
      error: f.error,
      last_hit: f.last_hit,
      latency: avg(f.latency_sum, f.hits),
      upstream_latency: avg(f.upstream_latency_sum, f.hits),
      request_time: avg(f.request_time_sum, f.hits),
      min_latency: finite(f.min_latency),
      max_latency: finite(f.max_latency),
      min_upstream_latency: finite(f.min_upstream_latency),
      max_upstream_latency: finite(f.max_upstream_latency),
      // day/month/year/hour 0: the row covers the whole range, not one hour.
      id: {
        alias: f.alias,
        api_id: f.api_id,
        api_name: f.api_name,
        code: 0,
        day: 0,
        hour: 0,
        iso_country: '',
        key: keyHash,
        month: 0,
        path: f.path,
        queries: {},
        url: '',
        year: 0,
      },
    }));
}
