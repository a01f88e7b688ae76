import { apiAndKey, type Ctx } from '../lib/context';
import { call } from '../lib/http';
import { seedLargeOrg, untilFeedIsQuiet } from '../lib/large-org';
import { percentile, round, type Row } from '../lib/stats';

const KEYS = 10_000;
const APIS = 1_000;

type Run = { state: string; deleting_from: string; finished_at: string | null; deleted_total: number; deleted: Record<string, number> };

/**
 * Offboarding (contract §9): an organisation of 10,000 keys (each checked once, so each has its
 * counter) and 1,000 APIs deleted through DELETE /admin/organisations/{orgID}: how long the run
 * takes, and another organisation's check p50 while it runs against before.
 */
export async function offboarding(ctx: Ctx): Promise<Row[]> {
  const url = ctx.stage.url;
  const other = await ctx.tenant('bench-offboard-other');
  const { apiId, key } = await apiAndKey(ctx, other.orgId);
  const checkMs = async () => {
    const r = await call(url, 'POST', '/gw/sessions/check', ctx.gw, { key, api_id: apiId });
    if (r.status !== 200) throw new Error(`the other organisation's check answered ${r.status}`);
    return r.ms;
  };
  // Before: a quiet stage (once the organisation's 10,000 keys are made, the change feed has their records to read for a while).
  for (let i = 0; i < 300; i++) await checkMs(); // warm-up, not measured
  const before: number[] = [];
  for (let i = 0; i < 300; i++) before.push(await checkMs());

  const doomed = await ctx.tenant('bench-offboard');
  await seedLargeOrg(ctx, doomed.orgId, { apis: APIS, keys: KEYS, check: true });

  await untilFeedIsQuiet(ctx, doomed.orgId, KEYS);
  const t0 = performance.now();
  const started = await call(url, 'DELETE', `/admin/organisations/${doomed.orgId}`, ctx.admin);
  if (started.status !== 200) throw new Error(`DELETE ${started.status}`);
  const during: number[] = [];
  let run: Run;
  for (;;) {
    for (let i = 0; i < 20; i++) during.push(await checkMs());
    run = (await call(url, 'GET', `/admin/organisations/${doomed.orgId}/offboarding`, ctx.admin)).body.Meta as Run;
    if (run.state === 'done') break;
    if (performance.now() - t0 > 20 * 60_000) throw new Error(`the run stands at ${JSON.stringify(run)} after 20 minutes`);
  }
  const totalSeconds = (performance.now() - t0) / 1000;
  const deletingSeconds = (Date.parse(run.finished_at!) - Date.parse(run.deleting_from)) / 1000;
  const [p50Before, p50During] = [percentile(before, 50), percentile(during, 50)];
  const detail = { keys: KEYS, apis: APIS, items: run.deleted_total, keys_deleted: run.deleted.key ?? 0, apis_deleted: run.deleted.api ?? 0 };
  return [
    {
      scenario: 'offboarding',
      measured: `DELETE of an organisation of ${KEYS} keys and ${APIS} APIs to its run done, seconds`,
      value: round(totalSeconds),
      target: 'reported',
      pass: run.deleted.key === KEYS && run.deleted.api === APIS,
      detail: { ...detail, deleting_seconds: round(deletingSeconds), items_per_second: Math.round(run.deleted_total / deletingSeconds) },
    },
    {
      scenario: 'offboarding',
      measured: "another organisation's check p50 while it runs / before",
      value: round(p50During / p50Before),
      target: '≤ 1.5',
      pass: p50During / p50Before <= 1.5,
      detail: { ...detail, p50_before_ms: round(p50Before), p50_during_ms: round(p50During), checks_during: during.length },
    },
  ];
}
