import type { Ctx } from '../lib/context';
import { apiAndKey } from '../lib/context';
import { call } from '../lib/http';
import { interleaved, percentile, round, type Row } from '../lib/stats';

/** About 370 KB of members a policy keeps as they are, as the review's tenant stored (81 of them: 30 MB). */
const padding = () => Array.from({ length: 6 }, (_, i) => String(i).repeat(61_000));
const POLICIES = 81;

/**
 * Page 1 of a tenant holding 30 MB of policies against page 1 of an empty one, and another
 * organisation's list and check while four of the large tenant's list reads run at once (the
 * review's case: 0.011 s alone, 1.5 s then). Only routes, so the same scenario runs against any
 * revision.
 */
export async function listCost(ctx: Ctx, samples = 40): Promise<Row[]> {
  const big = await ctx.tenant('bench-cost-big');
  const empty = await ctx.tenant('bench-cost-empty');
  const other = await ctx.tenant('bench-cost-other');
  for (let i = 0; i < POLICIES; i += 3) {
    const made = await Promise.all(
      [i, i + 1, i + 2]
        .filter((n) => n < POLICIES)
        .map((n) => call(ctx.stage.url, 'POST', '/gw/policies', ctx.gw, { id: `${big.orgId}-p${n}`, name: `P${n}`, org_id: big.orgId, padding: padding() })),
    );
    for (const r of made) if (r.status !== 200) throw new Error(`policy ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  }
  for (let n = 0; n < 10; n++) {
    const r = await call(ctx.stage.url, 'POST', '/gw/policies', ctx.gw, { id: `${other.orgId}-p${n}`, name: `P${n}`, org_id: other.orgId });
    if (r.status !== 200) throw new Error(`policy ${r.status}`);
  }
  const { apiId, key } = await apiAndKey(ctx, other.orgId);
  const page = (dash: Record<string, string>, path: string) => async () => {
    const r = await call(ctx.stage.url, 'GET', path, dash);
    if (r.status !== 200) throw new Error(`list ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    return r.ms;
  };
  const check = async () => {
    const r = await call(ctx.stage.url, 'POST', '/gw/sessions/check', ctx.gw, { key, api_id: apiId, path: '/x', method: 'GET' });
    if (r.status !== 200) throw new Error(`check ${r.status}`);
    return r.ms;
  };
  const rows: Row[] = [];

  const first = await interleaved(samples, page(big.dash, '/api/portal/policies?page_size=1'), page(empty.dash, '/api/portal/policies?page_size=1'));
  const one = await interleaved(samples, page(big.dash, '/api/portal/policies?page_size=1'), page(big.dash, `/api/portal/policies/${big.orgId}-p0`));
  const firstRatio = percentile(first.a, 50) / percentile(first.b, 50);
  rows.push({
    scenario: 'list cost',
    measured: `GET /api/portal/policies?page_size=1, ${POLICIES} policies of 370 KB (30 MB) / none, p50`,
    value: round(firstRatio),
    target: 'reported',
    pass: true,
    detail: { p50_30mb_ms: round(percentile(first.a, 50)), p50_empty_ms: round(percentile(first.b, 50)), p99_30mb_ms: round(percentile(first.a, 99)), samples },
  });
  // What the page costs against reading the one policy it shows: the dataset behind it adds nothing.
  const oneRatio = percentile(one.a, 50) / percentile(one.b, 50);
  rows.push({
    scenario: 'list cost',
    measured: 'that page / GET of the one 370 KB policy it shows, p50',
    value: round(oneRatio),
    target: '<= 1.5',
    pass: oneRatio <= 1.5,
    detail: { p50_page_ms: round(percentile(one.a, 50)), p50_get_ms: round(percentile(one.b, 50)), samples },
  });

  // Another organisation's list and check, alone and while four readers loop on the large tenant.
  const alone = { list: [] as number[], check: [] as number[] };
  for (let i = 0; i < samples; i++) {
    alone.list.push(await page(other.dash, '/api/portal/policies')());
    alone.check.push(await check());
  }
  for (const [label, path] of [
    ['page_size=1', '/api/portal/policies?page_size=1'],
    ['page_size=100 (the most one request may read)', '/api/portal/policies?page_size=100'],
  ] as const) {
    let running = true;
    let loads = 0;
    const loops = Array.from({ length: 4 }, async () => {
      while (running) {
        await call(ctx.stage.url, 'GET', path, big.dash);
        loads++;
      }
    });
    const during = { list: [] as number[], check: [] as number[] };
    for (let i = 0; i < samples; i++) {
      during.list.push(await page(other.dash, '/api/portal/policies')());
      during.check.push(await check());
    }
    running = false;
    await Promise.all(loops);
    const ratio = percentile(during.list, 50) / percentile(alone.list, 50);
    rows.push({
      scenario: 'list cost',
      measured: `another organisation's GET /api/portal/policies while 4 readers loop on the 30 MB tenant's ${label} / alone, p50`,
      value: round(ratio),
      target: 'reported',
      pass: true,
      detail: {
        p50_during_ms: round(percentile(during.list, 50)),
        p99_during_ms: round(percentile(during.list, 99)),
        p50_alone_ms: round(percentile(alone.list, 50)),
        check_p50_during_ms: round(percentile(during.check, 50)),
        check_p50_alone_ms: round(percentile(alone.check, 50)),
        large_tenant_reads: loads,
        samples,
      },
    });
  }
  return rows;
}
