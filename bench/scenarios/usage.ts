import { countUsage } from '../../shared/services/usage-count';
import type { Ctx } from '../lib/context';
import { call } from '../lib/http';
import { percentile, round, type Row } from '../lib/stats';

const ORGS = 1000;
const APIS = 2;
const DAYS = 5;
/** A month of its own, so what other scenarios checked does not show in it. */
const MONTH = '2031-01';

/** One counter write as the stream carries it: its tally moved from `was` to `now`. */
function record(seq: number, orgId: string, apiId: string, day: string, was: number, now: number) {
  const image = (n: number) => ({
    PK: { S: `KEY#bench-${orgId}-${apiId}` },
    SK: { S: 'QUOTA' },
    entity: { S: 'live_quota' },
    tally_allowed: { N: String(n) },
    tally_of: { S: `${orgId}\n${apiId}\n${day}` },
  });
  return { eventName: 'MODIFY' as const, dynamodb: { SequenceNumber: String(seq), NewImage: image(now), OldImage: image(was) } };
}

/**
 * Usage for billing (contract §14): the month's figures of 1,000 organisations through GET
 * /admin/usage (JSON and CSV) and one organisation's through GET /admin/organisations/{orgID}/usage,
 * after the usage consumer folded a stream's worth of counter writes into them (its rate is the
 * second figure: how far the figures trail the check).
 */
export async function usage(ctx: Ctx, samples = 20): Promise<Row[]> {
  const run = Date.now().toString(36);
  // The first organisation exists (its own route answers 404 otherwise); the others need not.
  const one = await ctx.tenant('bench-usage-one');
  const orgs = Array.from({ length: ORGS }, (_, i) => (i === 0 ? one.orgId : `bench-usage-${run}-${i}`));
  const records = orgs.flatMap((org, o) =>
    Array.from({ length: APIS * DAYS }, (_, k) => {
      const api = `api-${k % APIS}`;
      const day = `${MONTH}-${String(1 + Math.floor(k / APIS)).padStart(2, '0')}`;
      return record(o * 100 + k + 1, org, api, day, k, k + 1 + (o % 7));
    }),
  );
  const t0 = performance.now();
  // Batches as the cloud's mapping hands them over (1,000 records).
  for (let i = 0; i < records.length; i += 1000) await countUsage(records.slice(i, i + 1000));
  const foldSeconds = (performance.now() - t0) / 1000;
  // Busy keys: 10,000 writes of 10 keys, as a gateway's steady traffic on a few keys hands them over.
  const busy = Array.from({ length: 10_000 }, (_, i) =>
    record(1_000_000 + i, one.orgId, `api-busy-${i % 10}`, `${MONTH}-20`, Math.floor(i / 10), Math.floor(i / 10) + 1),
  );
  const t1 = performance.now();
  for (let i = 0; i < busy.length; i += 1000) await countUsage(busy.slice(i, i + 1000));
  const busySeconds = (performance.now() - t1) / 1000;

  const timedGet = async (path: string) => {
    const ms: number[] = [];
    for (let i = 0; i < samples; i++) {
      const r = await call(ctx.stage.url, 'GET', path, ctx.admin);
      if (r.status !== 200) throw new Error(`${path} ${r.status}`);
      ms.push(r.ms);
    }
    return ms;
  };
  const check = await call(ctx.stage.url, 'GET', `/admin/usage?month=${MONTH}`, ctx.admin);
  const listed = (check.body as { organisations: unknown[] }).organisations.length;
  if (listed < ORGS) throw new Error(`GET /admin/usage listed ${listed} organisations, not ${ORGS}`);
  const json = await timedGet(`/admin/usage?month=${MONTH}`);
  const csv = await timedGet(`/admin/usage?month=${MONTH}&format=csv`);
  const org = await timedGet(`/admin/organisations/${one.orgId}/usage?month=${MONTH}`);
  const detail = { organisations: listed, samples };
  return [
    {
      scenario: 'usage for billing',
      measured: `GET /admin/usage, a month of ${ORGS} organisations, p50 ms`,
      value: round(percentile(json, 50)),
      target: '≤ 1000',
      pass: percentile(json, 50) <= 1000,
      detail: { ...detail, p99_ms: round(percentile(json, 99)), max_ms: round(Math.max(...json)) },
    },
    {
      scenario: 'usage for billing',
      measured: `the same as CSV (format=csv), p50 ms`,
      value: round(percentile(csv, 50)),
      target: '≤ 1000',
      pass: percentile(csv, 50) <= 1000,
      detail: {
        ...detail,
        p99_ms: round(percentile(csv, 99)),
        bytes: (await call(ctx.stage.url, 'GET', `/admin/usage?month=${MONTH}&format=csv`, ctx.admin)).text.length,
      },
    },
    {
      scenario: 'usage for billing',
      measured: "GET /admin/organisations/{orgID}/usage, one organisation's month, p50 ms",
      value: round(percentile(org, 50)),
      target: 'reported',
      pass: true,
      detail: { samples, p99_ms: round(percentile(org, 99)) },
    },
    {
      scenario: 'usage for billing',
      measured: 'the usage consumer: counter writes of distinct keys folded per second (batches of 1,000; the worst case)',
      value: Math.round(records.length / foldSeconds),
      target: 'reported',
      pass: true,
      detail: { records: records.length, seconds: round(foldSeconds), day_items: ORGS * APIS * DAYS, month_items: ORGS },
    },
    {
      scenario: 'usage for billing',
      measured: 'the usage consumer: counter writes of 10 busy keys folded per second (batches of 1,000)',
      value: Math.round(busy.length / busySeconds),
      target: 'reported',
      pass: true,
      detail: { records: busy.length, seconds: round(busySeconds) },
    },
  ];
}
