import { describe, expect, it } from 'vitest';
import { activityRange, aggregateActivity, batchFingerprint, hourOf, planIngest, summariseRecords, type CounterItem } from '../../shared/domain/analytics';
import { pageRows } from '../../shared/domain/paging';
import { slicesOf } from '../../shared/lib/slices';
import { BadRequest } from '../../shared/errors';
import { analyticsIngestSchema, keyActivityParamsSchema, type AnalyticsRecord } from '../../shared/schemas/analytics';

const rec = (over: Partial<AnalyticsRecord> = {}): AnalyticsRecord => ({
  api_id: 'api1',
  path: '/a',
  method: 'GET',
  response_code: 200,
  key_hash: 'k1',
  org_id: 'o1',
  timestamp: '2024-05-01T10:15:00Z',
  request_time: 10,
  latency: { total: 10, upstream: 8 },
  ...over,
});

const range = (s: string, e: string) => {
  const [sy, sm, sd] = s.split('-');
  const [ey, em, ed] = e.split('-');
  return keyActivityParamsSchema.parse({ keyHash: 'k', startDay: sd, startMonth: sm, startYear: sy, EndDay: ed, EndMonth: em, EndYear: ey });
};

describe('hourOf', () => {
  it('buckets by the UTC hour, whatever offset the timestamp has', () => {
    expect(hourOf('2024-05-01T10:59:59.999Z')).toBe('2024-05-01T10');
    expect(hourOf('2024-05-01T01:30:00+02:00')).toBe('2024-04-30T23');
  });
});

describe('summariseRecords', () => {
  it('sums each (key, hour, API, path) once; success below 400, error 400 and above; min, max and latest hit', () => {
    const deltas = summariseRecords([
      rec({ response_code: 200, latency: { total: 10, upstream: 8 }, request_time: 11 }),
      rec({ response_code: 304, latency: { total: 30, upstream: 5 }, request_time: 31, timestamp: '2024-05-01T10:50:00Z', api_name: 'Late' }),
      rec({ response_code: 404, latency: { total: 20, upstream: 12 }, request_time: 21, timestamp: '2024-05-01T10:05:00Z', api_name: 'Early' }),
      rec({ path: '/b', response_code: 500 }),
      rec({ timestamp: '2024-05-01T11:00:00Z' }),
      rec({ key_hash: 'k2' }),
    ]);
    expect(deltas).toHaveLength(4);
    const a = deltas.find((d) => d.key_hash === 'k1' && d.hour === '2024-05-01T10' && d.path === '/a')!;
    expect(a).toMatchObject({
      hits: 3,
      success: 2,
      error: 1,
      latency_sum: 60,
      upstream_latency_sum: 25,
      request_time_sum: 63,
      min_latency: 10,
      max_latency: 30,
      min_upstream_latency: 5,
      max_upstream_latency: 12,
      last_hit: '2024-05-01T10:50:00.000Z',
      api_name: 'Late',
    });
    const b = deltas.find((d) => d.path === '/b')!;
    expect(b).toMatchObject({ hits: 1, success: 0, error: 1 });
  });

  it('takes the API name from the fallback when records carry none', () => {
    const [d] = summariseRecords([rec()], () => 'From key');
    expect(d!.api_name).toBe('From key');
  });
});

describe('planIngest', () => {
  it('counts records of unknown keys and of keys of another organisation, and stores the rest', () => {
    const keys: Record<string, { org_id: string; access_rights: Record<string, { api_name: string }> }> = {
      k1: { org_id: 'o1', access_rights: { api1: { api_name: 'Named' } } },
      blank: { org_id: '', access_rights: {} },
    };
    const plan = planIngest(
      [rec(), rec({ key_hash: 'nope' }), rec({ org_id: 'other' }), rec({ key_hash: 'blank', org_id: 'o9' }), rec({ org_id: undefined })],
      (h) => keys[h],
    );
    expect(plan).toMatchObject({ stored: 3, unknown: 2 });
    expect(plan.deltas.find((d) => d.key_hash === 'k1')).toMatchObject({ hits: 2, api_name: 'Named' });
  });
});

describe('batches', () => {
  const keys: Record<string, { org_id: string }> = { k1: { org_id: 'o1' } };
  const recs = [rec(), rec({ key_hash: 'nope' }), rec({ path: '/b' }), rec({ org_id: 'other' })];

  it("a retry planned with its first attempt's refusals sums the same counters, even if a key appeared meanwhile", () => {
    const first = planIngest(recs, (h) => keys[h]);
    expect(first.refused).toEqual([1, 3]);
    const later = planIngest(recs, (h) => ({ ...keys, nope: { org_id: 'o1' } })[h], first.refused);
    expect(later).toEqual(first);
    expect(planIngest(recs, (h) => ({ ...keys, nope: { org_id: 'o1' } })[h]).stored).toBe(3);
  });

  it('cuts counters into the same runs every time', () => {
    expect(slicesOf([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(slicesOf([], 99)).toEqual([]);
  });

  it('fingerprints the validated records: member order and members the schema drops do not matter, any counted value does', () => {
    const parse = (records: unknown[]) => analyticsIngestSchema.parse({ records }).records;
    const a = parse([{ ...rec(), raw_request: 'dropped' }]);
    const reordered = Object.fromEntries(Object.entries(rec()).reverse());
    expect(batchFingerprint(parse([reordered]))).toBe(batchFingerprint(a));
    expect(batchFingerprint(parse([rec({ request_time: 11 })]))).not.toBe(batchFingerprint(a));
    expect(batchFingerprint(parse([rec(), rec()]))).not.toBe(batchFingerprint(a));
  });

  it('batch_id is optional and must be an id', () => {
    expect(analyticsIngestSchema.safeParse({ records: [rec()], batch_id: '3f1c9a2e-7d41-4b8e-9f0a-2c6d5e8b1a47' }).success).toBe(true);
    expect(analyticsIngestSchema.safeParse({ records: [rec()], batch_id: 'a#b' }).success).toBe(false);
    expect(analyticsIngestSchema.safeParse({ records: [rec()], batch_id: '' }).success).toBe(false);
  });
});

describe('analytics body schema', () => {
  it('takes 1000 records and refuses 1001, bad timestamps and codes', () => {
    expect(analyticsIngestSchema.safeParse({ records: Array.from({ length: 1000 }, () => rec()) }).success).toBe(true);
    expect(analyticsIngestSchema.safeParse({ records: Array.from({ length: 1001 }, () => rec()) }).success).toBe(false);
    expect(analyticsIngestSchema.safeParse({ records: [rec({ timestamp: '2024-02-30T10:00:00Z' })] }).success).toBe(false);
    expect(analyticsIngestSchema.safeParse({ records: [rec({ timestamp: 'yesterday' })] }).success).toBe(false);
    expect(analyticsIngestSchema.safeParse({ records: [rec({ response_code: 99 })] }).success).toBe(false);
    expect(analyticsIngestSchema.safeParse({ records: [rec({ key_hash: 'a#b' })] }).success).toBe(false);
    expect(analyticsIngestSchema.safeParse({ records: [] }).success).toBe(false);
  });
});

describe('activityRange', () => {
  it('covers whole days inclusive, up to 366 (a leap year)', () => {
    expect(activityRange(range('2024-05-01', '2024-05-01'))).toEqual({ from: '2024-05-01', to: '2024-05-01', days: 1 });
    expect(activityRange(range('2024-01-01', '2024-12-31')).days).toBe(366);
  });

  it('refuses missing days, reversed ranges and ranges over 366 days with 400', () => {
    for (const [s, e] of [
      ['2023-02-29', '2023-03-01'],
      ['2024-04-31', '2024-05-01'],
      ['2024-05-02', '2024-05-01'],
      ['2023-01-01', '2024-01-02'],
    ]) {
      expect(() => activityRange(range(s!, e!)), `${s}..${e}`).toThrow(BadRequest);
    }
  });

  it('refuses month 13, day 0 and non-numbers at the schema', () => {
    const base = { keyHash: 'k', startDay: '1', startMonth: '1', startYear: '2024', EndDay: '1', EndMonth: '1', EndYear: '2024' };
    expect(keyActivityParamsSchema.safeParse(base).success).toBe(true);
    for (const bad of [{ startMonth: '13' }, { EndDay: '0' }, { startYear: '24' }, { EndMonth: 'x' }]) {
      expect(keyActivityParamsSchema.safeParse({ ...base, ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('aggregateActivity', () => {
  const item = (over: Partial<CounterItem>): CounterItem => ({
    api_id: 'api1',
    path: '/a',
    hits: 1,
    success: 1,
    error: 0,
    latency_sum: 10,
    upstream_latency_sum: 5,
    request_time_sum: 12,
    min_latency: 10,
    max_latency: 10,
    min_upstream_latency: 5,
    max_upstream_latency: 5,
    last_hit: '2024-05-01T10:00:00.000Z',
    ...over,
  });

  it('folds hours into one row per (API, path) with hit-weighted averages, busiest first', () => {
    const rows = aggregateActivity('hash', [
      item({ hits: 1, latency_sum: 10, api_name: 'Old' }),
      item({
        hits: 3,
        success: 2,
        error: 1,
        latency_sum: 90,
        upstream_latency_sum: 30,
        request_time_sum: 99,
        min_latency: 20,
        max_latency: 40,
        last_hit: '2024-05-02T09:00:00.000Z',
        api_name: 'New',
        alias: 'al',
      }),
      item({ path: '/b', hits: 2 }),
    ]);
    expect(rows.map((r) => r.id.path)).toEqual(['/a', '/b']);
    expect(rows[0]).toEqual({
      hits: 4,
      success: 3,
      error: 1,
      last_hit: '2024-05-02T09:00:00.000Z',
      latency: 25,
      upstream_latency: 35 / 4,
      request_time: 111 / 4,
      min_latency: 10,
      max_latency: 40,
      min_upstream_latency: 5,
      max_upstream_latency: 5,
      id: {
        alias: 'al',
        api_id: 'api1',
        api_name: 'New',
        code: 0,
        day: 0,
        hour: 0,
        iso_country: '',
        key: 'hash',
        month: 0,
        path: '/a',
        queries: {},
        url: '',
        year: 0,
      },
    });
  });

  it('answers no rows for no counters', () => {
    expect(aggregateActivity('hash', [])).toEqual([]);
  });
});

describe('pageRows', () => {
  const rows = Array.from({ length: 23 }, (_, i) => i);
  const key = Buffer.alloc(32, 7);

  it('pages by number, by cursor, or all', () => {
    const p1 = pageRows(rows, { mode: 'page', page: 1, size: 10, offset: 0 }, 'x', key);
    expect(p1).toMatchObject({ data: rows.slice(0, 10), pages: 3 });
    const p2 = pageRows(rows, { mode: 'cursor', cursor: p1.next_cursor!, size: 10 }, 'x', key);
    expect(p2.data).toEqual(rows.slice(10, 20));
    const p3 = pageRows(rows, { mode: 'cursor', cursor: p2.next_cursor!, size: 10 }, 'x', key);
    expect(p3.data).toEqual(rows.slice(20));
    expect(p3.next_cursor).toBeUndefined();
    expect(pageRows(rows, { mode: 'all' }, 'x', key)).toEqual({ data: rows, pages: 1 });
    expect(pageRows([], { mode: 'page', page: 1, size: 10, offset: 0 }, 'x', key)).toEqual({ data: [], pages: 0 });
  });

  it("refuses another list's cursor, another key's, a forged offset and garbage with 400", () => {
    const p1 = pageRows(rows, { mode: 'page', page: 1, size: 10, offset: 0 }, 'x', key);
    expect(() => pageRows(rows, { mode: 'cursor', cursor: p1.next_cursor!, size: 10 }, 'y', key)).toThrow(BadRequest);
    expect(() => pageRows(rows, { mode: 'cursor', cursor: p1.next_cursor!, size: 10 }, 'x', Buffer.alloc(32, 8))).toThrow(BadRequest);
    // The unsigned form this service used to hand out (base64 JSON offset) is not a cursor of it.
    const forged = Buffer.from(JSON.stringify({ s: 'x', o: 20 })).toString('base64url');
    expect(() => pageRows(rows, { mode: 'cursor', cursor: forged, size: 10 }, 'x', key)).toThrow(BadRequest);
    expect(() => pageRows(rows, { mode: 'cursor', cursor: 'garbage', size: 10 }, 'x', key)).toThrow(BadRequest);
  });
});

describe('counter retention', () => {
  it('expires an hourly counter 400 days after its hour', async () => {
    const { counterExpiry, RETENTION_DAYS } = await import('../../shared/domain/analytics');
    expect(RETENTION_DAYS).toBeGreaterThan(366);
    expect(counterExpiry('2026-01-01T05')).toBe(Date.UTC(2026, 0, 1, 5) / 1000 + 400 * 86_400);
  });
});
