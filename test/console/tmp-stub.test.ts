import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureConsoleBuilt } from '../../console/host/build';
import { axeViolations, launchChromium, type Browser } from '../support/chromium';
import { startStage, type Stage } from '../support/stage';

let s: Stage; let b: Browser; let owner: { orgId: string; key: string; userId: string };
const json = (route: Route, body: unknown, headers: Record<string, string> = {}) => route.fulfill({ status: 200, contentType: 'application/json', headers, body: JSON.stringify(body) });
beforeAll(async () => {
  ensureConsoleBuilt();
  s = await startStage();
  owner = await s.tenant();
  await s.dash(owner.key, 'POST', '/api/apis/oas/import', { openapi: '3.0.3', info: { title: 'Pets', version: '1' }, servers: [{ url: 'https://p.example' }], paths: {} });
  b = await launchChromium();
  const apis = (await s.dash(owner.key, 'GET', '/api/apis')).body.apis;
  const apiId = apis[0].api_definition.api_id;
  const entry = { ...apis[0], hook_references: [{ event_name: 'QuotaExceeded', event_timeout: 60, hook: { id: 'abc', name: '' } }], api_definition: { ...apis[0].api_definition, definition: { enabled: true, default: 'v2', versions: { v2: 'pets-v2' } } } };
  const key = { key_hash: 'a'.repeat(64), alias: 'k1', apis: [apiId], apply_policies: [], expires: 0, is_inactive: false, quota_max: 2, quota_remaining: 0, quota_renews: Date.now() / 1000 + 3600, date_created: '', last_updated: '' };
  const policy = { id: 'gold', name: 'Gold', rate: 10, per: 60, quota_max: 100, quota_renewal_rate: 3600, access_rights: { [apiId]: { api_id: apiId, api_name: 'Pets', versions: ['Default'] } }, active: true };
  const users = (await s.dash(owner.key, 'GET', '/api/users')).body.users;
  await b.context.route(/\/api\/(users\/me|apis\/[^/?]+$|keys|portal\/policies|usage)/, async (route) => {
    const u = new URL(route.request().url());
    if (u.pathname === '/api/users/me') return json(route, users[0]);
    if (u.pathname.startsWith('/api/apis/')) return json(route, entry, { etag: '"1"' });
    if (u.pathname === '/api/keys') return json(route, { keys: [key], pages: 1 });
    if (u.pathname === '/api/portal/policies') return json(route, { Data: [policy], Pages: 1 });
    if (u.pathname.startsWith('/api/portal/policies/')) return json(route, policy, { etag: '"1"' });
    if (u.pathname.startsWith('/api/usage/')) {
      const res = u.searchParams.get('resolution') ?? 'day';
      const step = res === 'hour' ? 3600e3 : 86400e3; const n = res === 'hour' ? 48 : 30;
      const start = Math.floor(Date.now() / step) * step - (n - 1) * step;
      return json(route, { resolution: res, from: '', to: '', data: Array.from({ length: n }, (_, i) => ({ period: new Date(start + i * step).toISOString(), hits: i % 7, success: i % 5, error: i % 2, latency_avg: 20 + i, latency_max: 50 + i, upstream_latency_avg: 10 })) });
    }
    return route.continue();
  });
}, 200_000);
afterAll(async () => { await b?.close(); await s?.close(); });

it('renders the 27 pages with stubs', async () => {
  const page: Page = await b.context.newPage();
  const errs: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error' || /Security/.test(m.text())) errs.push(m.text()); });
  page.on('pageerror', (e) => errs.push(e.message));
  await page.goto(`${s.url}/console/`);
  await page.getByLabel('Access key').fill(owner.key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'APIs' }).waitFor();
  const apis = (await s.dash(owner.key, 'GET', '/api/apis')).body.apis;
  for (const p of ['/console/keys', '/console/keys/new', '/console/policies', '/console/policies/new', '/console/policies/gold', `/console/apis/${apis[0].api_definition.api_id}`, '/console/usage']) {
    await page.goto(`${s.url}${p}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);
    const v = await axeViolations(page);
    console.log(p, JSON.stringify(v.map((x) => [x.id, x.impact, x.nodes.slice(0, 2)])));
    await page.screenshot({ path: `/tmp/t31-${p.replace(/\//g, '_')}.png`, fullPage: true });
  }
  console.log('errors', errs);
  expect(errs).toEqual([]);
});
