import { mapLimit } from '../../shared/lib/concurrency';
import type { Ctx } from './context';
import { call } from './http';

/**
 * An organisation of `apis` classic APIs and `keys` keys (each on one of them, and checked once
 * when `check`, so each has its counter): the large tenant the offboarding and transfer scenarios
 * measure. Answers the API ids.
 */
export async function seedLargeOrg(ctx: Ctx, orgId: string, n: { apis: number; keys: number; check: boolean }): Promise<string[]> {
  const url = ctx.stage.url;
  const apis = await mapLimit(
    Array.from({ length: n.apis }, (_, i) => i),
    16,
    async (i) => {
      const apiId = `big-${orgId}-${i}`;
      const r = await call(url, 'POST', '/gw/apis', ctx.gw, {
        api_id: apiId,
        name: apiId,
        org_id: orgId,
        proxy: { listen_path: `/${apiId}/`, target_url: 'http://u.example' },
      });
      if (r.status !== 200) throw new Error(`api ${r.status}`);
      return apiId;
    },
  );
  await mapLimit(
    Array.from({ length: n.keys }, (_, i) => i),
    32,
    async (i) => {
      const apiId = apis[i % n.apis]!;
      const r = await call(url, 'POST', '/gw/keys/create', ctx.gw, {
        org_id: orgId,
        access_rights: { [apiId]: { api_id: apiId, api_name: apiId, versions: ['Default'] } },
      });
      if (r.status !== 200) throw new Error(`key ${r.status}`);
      if (!n.check) return;
      const c = await call(url, 'POST', '/gw/sessions/check', ctx.gw, { key: r.body.key, api_id: apiId });
      if (c.status !== 200) throw new Error(`check ${c.status}`);
    },
  );
  return apis;
}

/**
 * Waits until the stage's change feed is done with the records of the seeding (the usage figures
 * hold each key's one check), then 20 s more: a scenario measures a quiet stage, not the feed.
 */
export async function untilFeedIsQuiet(ctx: Ctx, orgId: string, checks: number): Promise<void> {
  const month = new Date().toISOString().slice(0, 7);
  for (const t = performance.now(); ; ) {
    const u = await call(ctx.stage.url, 'GET', `/admin/organisations/${orgId}/usage?month=${month}`, ctx.admin);
    if ((u.body as { total?: { allowed?: number } }).total?.allowed === checks) break;
    if (performance.now() - t > 5 * 60_000) throw new Error('the usage figures did not catch up in 5 minutes');
    await new Promise((r) => setTimeout(r, 500));
  }
  await new Promise((r) => setTimeout(r, 20_000));
}
