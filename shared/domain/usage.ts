/**
 * Usage over time without I/O (GET /api/usage/...): the per-API hourly sums ingestion adds, the
 * periods of a requested range, and the zero-filled rows a chart reads.
 */
import { BadRequest } from '../errors';
import { activityRange, hourOf } from './analytics';
import type { AnalyticsRecord, KeyActivityParams } from '../schemas/analytics';

export type Resolution = 'hour' | 'day';

/** Longest range per resolution, in days (docs/reference/limits.md). */
const MAX_USAGE_DAYS: Record<Resolution, number> = { hour: 31, day: 366 };

/** What one call adds to the hourly usage counter of one (organisation, API, hour). */
export interface UsageDelta {
  org_id: string;
  api_id: string;
  hour: string;
  hits: number;
  success: number;
  error: number;
  latency_sum: number;
  upstream_latency_sum: number;
  max_latency: number;
}

/** An hourly usage counter as read back (of an API, or one of a key's counters: both carry these). */
export interface UsageItem {
  hour: string;
  hits: number;
  success: number;
  error: number;
  latency_sum: number;
  upstream_latency_sum: number;
  max_latency?: number;
}

/**
 * The per-API sums of a call's stored records: one delta per (organisation, API, hour), in a
 * stable order (a retried batch writes the same runs). A record's organisation is its own, else
 * its key's; records of keys without an organisation are read by no dashboard and add nothing.
 */
export function summariseUsage(records: readonly AnalyticsRecord[], orgOf: (r: AnalyticsRecord) => string): UsageDelta[] {
  const by = new Map<string, UsageDelta>();
  for (const r of records) {
    const org_id = orgOf(r);
    if (!org_id) continue;
    const hour = hourOf(r.timestamp);
    const id = JSON.stringify([org_id, r.api_id, hour]);
    let d = by.get(id);
    if (!d)
      by.set(
        id,
        (d = { org_id, api_id: r.api_id, hour, hits: 0, success: 0, error: 0, latency_sum: 0, upstream_latency_sum: 0, max_latency: r.latency.total }),
      );
    const ok = r.response_code < 400 ? 1 : 0;
    d.hits += 1;
    d.success += ok;
    d.error += 1 - ok;
    d.latency_sum += r.latency.total;
    d.upstream_latency_sum += r.latency.upstream;
    d.max_latency = Math.max(d.max_latency, r.latency.total);
  }
  return [...by.values()];
}

export interface UsageRange {
  resolution: Resolution;
  /** First hour (`yyyy-mm-ddThh`) and last hour of the range, inclusive: the counters' sort keys. */
  firstHour: string;
  lastHour: string;
  from: string;
  /** Exclusive end: midnight after the last day. */
  to: string;
  /** The ISO start of each period, in order. */
  periods: string[];
}

const HOUR_MS = 3_600_000;

/** Whole days start..end at the resolution; 400 for a missing day, a reversed range, or one longer than the resolution allows. */
export function usageRange(p: Omit<KeyActivityParams, 'keyHash'>, resolution: Resolution): UsageRange {
  const days = activityRange(p);
  const max = MAX_USAGE_DAYS[resolution];
  if (days.days > max) {
    throw new BadRequest(`The range covers ${days.days} days; resolution=${resolution} allows at most ${max}`, [
      { path: 'params.EndDay', message: `range longer than ${max} days for resolution=${resolution}` },
    ]);
  }
  const start = Date.parse(`${days.from}T00:00:00Z`);
  const end = Date.parse(`${days.to}T00:00:00Z`) + 24 * HOUR_MS;
  const step = resolution === 'hour' ? HOUR_MS : 24 * HOUR_MS;
  const periods: string[] = [];
  for (let t = start; t < end; t += step) periods.push(new Date(t).toISOString());
  return { resolution, firstHour: `${days.from}T00`, lastHour: `${days.to}T23`, from: new Date(start).toISOString(), to: new Date(end).toISOString(), periods };
}

/** The period an hour falls in at the resolution, as its ISO start. */
const periodOf = (hour: string, resolution: Resolution) => new Date(`${resolution === 'hour' ? hour : hour.slice(0, 10) + 'T00'}:00:00Z`).toISOString();

/** One row per period of the range, in order, zero-filled: sums, hit-weighted average latencies, the largest latency. */
export function usageRows(items: readonly UsageItem[], range: UsageRange) {
  const sums = new Map(range.periods.map((p) => [p, { hits: 0, success: 0, error: 0, latency_sum: 0, upstream_latency_sum: 0, latency_max: 0 }]));
  for (const it of items) {
    const s = sums.get(periodOf(it.hour, range.resolution));
    if (!s) continue;
    s.hits += Number(it.hits ?? 0);
    s.success += Number(it.success ?? 0);
    s.error += Number(it.error ?? 0);
    s.latency_sum += Number(it.latency_sum ?? 0);
    s.upstream_latency_sum += Number(it.upstream_latency_sum ?? 0);
    s.latency_max = Math.max(s.latency_max, Number(it.max_latency ?? 0));
  }
  const avg = (sum: number, hits: number) => (hits > 0 ? sum / hits : 0);
  return range.periods.map((period) => {
    const s = sums.get(period)!;
    return {
      period,
      hits: s.hits,
      success: s.success,
      error: s.error,
      latency_avg: avg(s.latency_sum, s.hits),
      latency_max: s.latency_max,
      upstream_latency_avg: avg(s.upstream_latency_sum, s.hits),
    };
  });
}
