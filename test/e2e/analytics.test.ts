import { handlersDone } from '../../shared/http/create-handler';
import { beforeAll, describe, expect, it } from 'vitest';
import { useStage, useTenants } from '../support/file-stage';
import { makeApi, makeKey, rightsFor } from '../support/fixtures';

const s = useStage();
const [a, b] = useTenants(s, 2);
let apiId: string;
let keyA: { key: string; hash: string };
let keyB: { key: string; hash: string };
beforeAll(async () => {
  apiId = await makeApi(s, a.orgId, 'shop');
  const apiB = await makeApi(s, b.orgId, 'other');
  keyA = await makeKey(s, { org_id: a.orgId, access_rights: rightsFor(apiId) });
  keyB = await makeKey(s, { org_id: b.orgId, access_rights: rightsFor(apiB) });
});

interface Rec {
  api_id: string;
  api_name?: string;
  path: string;
  method: string;
  response_code: number;
  key_hash: string;
  org_id: string;
  timestamp: string;
  request_time: number;
  latency: { total: number; upstream: number };
}

const activity = (key: string, hash: string, start: string, end: string, query = '') => {
  const [sy, sm, sd] = start.split('-');
  const [ey, em, ed] = end.split('-');
  return s.dash(key, 'GET', `/api/activity/keys/${hash}/${sd}/${sm}/${sy}/${ed}/${em}/${ey}${query}`);
};

/** The expected row of one path, computed from the records alone. */
function expected(recs: Rec[]) {
  const sum = (f: (r: Rec) => number) => recs.reduce((t, r) => t + f(r), 0);
  return {
    hits: recs.length,
    success: recs.filter((r) => r.response_code < 400).length,
    error: recs.filter((r) => r.response_code >= 400).length,
    latency: sum((r) => r.latency.total) / recs.length,
    upstream_latency: sum((r) => r.latency.upstream) / recs.length,
    request_time: sum((r) => r.request_time) / recs.length,
    min_latency: Math.min(...recs.map((r) => r.latency.total)),
    max_latency: Math.max(...recs.map((r) => r.latency.total)),
    min_upstream_latency: Math.min(...recs.map((r) => r.latency.upstream)),
    max_upstream_latency: Math.max(...recs.map((r) => r.latency.upstream)),
    last_hit: recs
      .map((r) => new Date(r.timestamp).toISOString())
      .sort()
      .at(-1),
  };
}

function expectRow(row: Record<string, any>, recs: Rec[]) {
  const e = expected(recs);
  expect(row).toMatchObject({
    hits: e.hits,
    success: e.success,
    error: e.error,
    last_hit: e.last_hit,
    min_latency: e.min_latency,
    max_latency: e.max_latency,
    min_upstream_latency: e.min_upstream_latency,
    max_upstream_latency: e.max_upstream_latency,
  });
  expect(row.latency).toBeCloseTo(e.latency, 9);
  expect(row.upstream_latency).toBeCloseTo(e.upstream_latency, 9);
  expect(row.request_time).toBeCloseTo(e.request_time, 9);
}

describe('analytics ingestion and key activity', () => {
  const paths = ['/v1/users/42', '/v1/orders/7?expand=lines#frag'];
  const codes = [200, 201, 304, 404, 500];
  // Built when a test runs: the API id exists only after beforeAll.
  const records = (): Rec[] =>
    Array.from({ length: 20 }, (_, i) => ({
      api_id: apiId,
      api_name: 'Shop',
      path: paths[i % 2]!,
      method: i % 3 ? 'GET' : 'POST',
      response_code: codes[i % codes.length]!,
      key_hash: '',
      org_id: '',
      // Two days, several hours each; one record with an offset that still falls on the first day in UTC.
      timestamp:
        i === 7
          ? '2024-03-10T23:30:00+01:00'
          : `2024-03-${i < 10 ? '10' : '11'}T${String((i * 5) % 24).padStart(2, '0')}:${String(i * 3).padStart(2, '0')}:00Z`,
      request_time: 20 + i * 7,
      latency: { total: 15 + ((i * 37) % 50), upstream: 5 + ((i * 11) % 30) },
    }));

  it('20 records over two days and two paths: the activity rows match sums computed here; unknown keys are counted', async () => {
    const mine = records().map((r) => ({ ...r, key_hash: keyA.hash, org_id: a.orgId }));
    const first = await s.gw('POST', '/gw/analytics', {
      records: [...mine.slice(0, 12), { ...mine[0], key_hash: 'no-such-key-hash' }, { ...mine[1], org_id: b.orgId }],
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({ status: 'ok', action: 'added', stored: 12, unknown_keys: 2, counters: expect.any(Number) });
    const second = await s.gw('POST', '/gw/analytics', { records: mine.slice(12) });
    expect(second.body).toMatchObject({ stored: 8, unknown_keys: 0 });

    const r = await activity(a.key, keyA.hash, '2024-03-10', '2024-03-11');
    expect(r.status).toBe(200);
    expect(r.body.pages).toBe(1);
    expect(r.body.data).toHaveLength(2);
    for (const path of paths) {
      const row = r.body.data.find((x: any) => x.id.path === path);
      expect(row, path).toBeDefined();
      expectRow(
        row,
        mine.filter((x) => x.path === path),
      );
      expect(row.id).toMatchObject({ api_id: apiId, api_name: 'Shop', key: keyA.hash, path, day: 0, month: 0, year: 0, hour: 0 });
    }

    // One day only: the records whose UTC day is 10 March (record 7 is 22:30Z on the 10th).
    const day1 = await activity(a.key, keyA.hash, '2024-03-10', '2024-03-10');
    const onDay1 = mine.filter((x) => new Date(x.timestamp).toISOString().startsWith('2024-03-10'));
    expect(onDay1).toHaveLength(10);
    for (const path of paths) {
      expectRow(
        day1.body.data.find((x: any) => x.id.path === path),
        onDay1.filter((x) => x.path === path),
      );
    }

    // Paged one row at a time, by number and by cursor.
    const p1 = await activity(a.key, keyA.hash, '2024-03-10', '2024-03-11', '?page_size=1');
    expect(p1.body).toMatchObject({ pages: 2 });
    expect(p1.body.data).toHaveLength(1);
    const p2 = await activity(a.key, keyA.hash, '2024-03-10', '2024-03-11', `?page_size=1&cursor=${p1.body.next_cursor}`);
    expect(p2.body.data[0].id.path).not.toBe(p1.body.data[0].id.path);
    expect((await activity(a.key, keyA.hash, '2024-03-10', '2024-03-11', '?page_size=1&p=2')).body.data).toEqual(p2.body.data);

    // Records of the unknown key were not stored under any key of the organisation.
    expect((await activity(a.key, 'no-such-key-hash', '2024-03-10', '2024-03-11')).status).toBe(404);
  });

  it('answers empty data for a range outside the recorded days', async () => {
    const r = await activity(a.key, keyA.hash, '2024-03-12', '2024-04-30');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [], pages: 0 });
    const before = await activity(a.key, keyA.hash, '2024-03-01', '2024-03-09');
    expect(before.body.data).toEqual([]);
  });

  it('validates the dates: month 13, a missing day, an end before the start and 400 days are 400', async () => {
    const cases = [
      `/api/activity/keys/${keyA.hash}/1/13/2024/2/1/2025`,
      `/api/activity/keys/${keyA.hash}/30/2/2024/1/3/2024`,
      `/api/activity/keys/${keyA.hash}/2/3/2024/1/3/2024`,
      `/api/activity/keys/${keyA.hash}/1/1/2024/4/2/2025`,
      `/api/activity/keys/${keyA.hash}/x/1/2024/1/1/2024`,
    ];
    for (const path of cases) {
      const r = await s.dash(a.key, 'GET', path);
      expect(r.status, path).toBe(400);
      expect(r.body, path).toMatchObject({ Status: 'Error' });
    }
    // 366 days is the longest range allowed.
    expect((await activity(a.key, keyA.hash, '2024-01-01', '2024-12-31')).status).toBe(200);
  });

  it("answers 404 for another organisation's key and for an unknown hash", async () => {
    const r = await activity(b.key, keyA.hash, '2024-03-10', '2024-03-11');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ Status: 'Error', Meta: null });
    expect((await activity(a.key, keyB.hash, '2024-03-10', '2024-03-11')).status).toBe(404);
    expect((await activity(a.key, 'f'.repeat(64), '2024-03-10', '2024-03-11')).status).toBe(404);
  });

  it('refuses invalid bodies and more than 1000 records with 400, storing nothing', async () => {
    const one: Rec = { ...records()[0]!, key_hash: keyB.hash, org_id: b.orgId, timestamp: '2024-06-01T10:00:00Z' };
    const cases: unknown[] = [
      {},
      { records: [] },
      { records: Array.from({ length: 1001 }, () => one) },
      { records: [one, { ...one, response_code: 'ok' }] },
      { records: [one, { ...one, timestamp: '2024-06-31T10:00:00Z' }] },
      { records: [one, { ...one, latency: { total: -1, upstream: 0 } }] },
      { records: [one, { ...one, path: undefined }] },
    ];
    for (const body of cases) {
      const r = await s.gw('POST', '/gw/analytics', body);
      expect(r.status).toBe(400);
      expect(r.body.status).toBe('error');
    }
    const read = await activity(b.key, keyB.hash, '2024-06-01', '2024-06-01');
    expect(read.body.data).toEqual([]);
  });

  it('takes 1000 records in one call', async () => {
    const key = await makeKey(s, { org_id: a.orgId, access_rights: rightsFor(apiId) });
    const many = Array.from({ length: 1000 }, (_, i) => ({
      ...records()[0]!,
      key_hash: key.hash,
      org_id: a.orgId,
      path: `/p${i % 40}`,
      timestamp: `2024-07-0${1 + (i % 3)}T0${i % 10}:00:00Z`,
    }));
    const r = await s.gw('POST', '/gw/analytics', { records: many });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ stored: 1000, unknown_keys: 0, counters: 120 });
    const read = await activity(a.key, key.hash, '2024-07-01', '2024-07-03', '?p=-1');
    expect(read.body.data).toHaveLength(40);
    expect(read.body.data.reduce((t: number, x: any) => t + x.hits, 0)).toBe(1000);
  });

  it('a retried batch (same batch_id and records) answers the same and leaves the counters unchanged', async () => {
    const key = await makeKey(s, { org_id: a.orgId, access_rights: rightsFor(apiId) });
    const recs = records().map((r, i) => ({ ...r, key_hash: key.hash, org_id: a.orgId, timestamp: `2024-10-01T0${i % 4}:00:00Z` }));
    const body = { batch_id: `batch-${key.hash.slice(0, 8)}`, records: [...recs, { ...recs[0]!, key_hash: 'no-such-key' }] };
    const first = await s.gw('POST', '/gw/analytics', body);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: 'ok', action: 'added', stored: 20, unknown_keys: 1, counters: 4 });
    const counted = await activity(a.key, key.hash, '2024-10-01', '2024-10-01');
    for (let i = 0; i < 3; i++) {
      const again = await s.gw('POST', '/gw/analytics', body);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
    }
    const after = await activity(a.key, key.hash, '2024-10-01', '2024-10-01');
    expect(after.body).toEqual(counted.body);
    for (const path of paths)
      expectRow(
        after.body.data.find((x: any) => x.id.path === path),
        recs.filter((x) => x.path === path),
      );
  });

  it('a batch_id reused with other records is 422 and counts nothing; a bad batch_id is 400', async () => {
    const key = await makeKey(s, { org_id: a.orgId, access_rights: rightsFor(apiId) });
    const recs = records().map((r) => ({ ...r, key_hash: key.hash, org_id: a.orgId, timestamp: '2024-10-02T10:00:00Z' }));
    const batch_id = `reused-${key.hash.slice(0, 8)}`;
    expect((await s.gw('POST', '/gw/analytics', { batch_id, records: recs.slice(0, 10) })).status).toBe(200);
    const counted = await activity(a.key, key.hash, '2024-10-02', '2024-10-02');
    const other = await s.gw('POST', '/gw/analytics', { batch_id, records: recs.slice(10) });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      status: 'error',
      message: `batch_id ${batch_id} was already used with other records`,
      errors: [{ path: 'body.batch_id', message: 'already used with other records' }],
    });
    expect((await activity(a.key, key.hash, '2024-10-02', '2024-10-02')).body).toEqual(counted.body);
    const bad = await s.gw('POST', '/gw/analytics', { batch_id: 'no spaces', records: recs });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.batch_id']);
  });

  it('20 concurrent ingestion calls on the same counters lose no hit and keep exact min and max', async () => {
    const key = await makeKey(s, { org_id: a.orgId, access_rights: rightsFor(apiId) });
    const calls = Array.from({ length: 20 }, (_, c) =>
      Array.from(
        { length: 5 },
        (_, i): Rec => ({
          ...records()[0]!,
          key_hash: key.hash,
          org_id: a.orgId,
          path: i % 2 ? '/same/one' : '/same/two',
          response_code: (c + i) % 4 === 0 ? 503 : 200,
          timestamp: `2024-08-01T12:${String(c).padStart(2, '0')}:${String(i * 10).padStart(2, '0')}Z`,
          request_time: 100 + c * 5 + i,
          latency: { total: 50 + ((c * 7 + i * 13) % 97), upstream: 10 + ((c * 3 + i) % 41) },
        }),
      ),
    );
    // Each call is a batch, sent again after a 503 as a gateway does (the same batch_id counts once,
    // however its attempts overlap): on a loaded machine 20 writers of the same counters may run
    // out of time, and the subject here is that no hit is lost or counted twice.
    const send = async (recs: Rec[], c: number) => {
      const body = { batch_id: `same-${key.hash.slice(0, 8)}-${c}`, records: recs };
      let answer = await s.gw('POST', '/gw/analytics', body);
      for (let tries = 1; answer.status === 503 && tries < 5; tries++) answer = await s.gw('POST', '/gw/analytics', body);
      return answer;
    };
    const answers = await Promise.all(calls.map((recs, c) => send(recs, c)));
    expect(answers.map((x) => x.status)).toEqual(Array(20).fill(200));
    // Work that answered 503 may go on behind its answer: wait for it before reading.
    await handlersDone();
    const all = calls.flat();
    const read = await activity(a.key, key.hash, '2024-08-01', '2024-08-01');
    expect(read.body.data).toHaveLength(2);
    for (const path of ['/same/one', '/same/two']) {
      expectRow(
        read.body.data.find((x: any) => x.id.path === path),
        all.filter((x) => x.path === path),
      );
    }
    expect(read.body.data.reduce((t: number, x: any) => t + x.hits, 0)).toBe(100);
  });
});
