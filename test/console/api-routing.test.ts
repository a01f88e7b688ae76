/**
 * The API page edits what routes traffic, in a real browser (Debian's chromium) against the local
 * stage, with real nginx following the routing table (`gwctl gateway nginx --watch`): the page
 * shows the gateway serving the API, the user changes the upstream, and the next request through
 * nginx reaches the new one; a listen path another API holds is refused beside its field.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureConsoleBuilt } from '../../console/host/build';
import { axeViolations, launchChromium, seriousOf, type Browser } from '../support/chromium';
import { request } from '../support/client';
import { makeKey, rightsFor, uid } from '../support/fixtures';
import { startFollower, startNginxWith, type Follower, type FollowingNginx } from '../support/nginx';
import { onEmulator, startStage, type Stage } from '../support/stage';
import { GW_SECRET } from '../support/table';

// The follower reads the in-process stage (docs/developing/tests.md).
const maybe = onEmulator ? it.skip : it;

function upstream(name: string): { server: Server; url: () => string } {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ upstream: name, url: req.url }));
  });
  return { server, url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let s: Stage;
let browser: Browser;
let nginx: FollowingNginx;
let follower: Follower;
let owner: { orgId: string; key: string };
const [a, b] = [upstream('a'), upstream('b')];
const GATEWAY = uid('edge');

beforeAll(async () => {
  if (onEmulator) return;
  ensureConsoleBuilt();
  process.env.ALLOW_PRIVATE_TARGETS = '1';
  s = await startStage();
  owner = await s.tenant();
  await Promise.all([a, b].map((u) => new Promise<void>((r) => u.server.listen(0, '127.0.0.1', r))));
  nginx = await startNginxWith((listen) => `server { listen ${listen} default_server; return 404; }\n`);
  follower = await startFollower(nginx, s, { gatewaySecret: GW_SECRET, gatewayId: GATEWAY });
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  follower?.stop();
  await nginx?.close();
  await Promise.all([a, b].map((u) => new Promise((r) => u.server.close(r))));
  await s?.close();
  delete process.env.ALLOW_PRIVATE_TARGETS;
});

const via = (path: string, key: string) => request(nginx.url, 'GET', path, { headers: { connection: 'close', authorization: key }, verbatim: true });

maybe(
  'change the upstream on the API page: nginx sends the next request to the new one; a taken listen path shows beside its field',
  async () => {
    const id = uid('shop');
    const taken = uid('held');
    for (const [apiId, target] of [
      [id, a.url()],
      [taken, a.url()],
    ])
      expect(
        (
          await s.dash(owner.key, 'POST', '/api/apis', {
            api_definition: { api_id: apiId, name: apiId, proxy: { listen_path: `/${apiId}/`, target_url: target } },
          })
        ).status,
      ).toBe(200);
    const { key } = await makeKey(s, { org_id: owner.orgId, access_rights: rightsFor(id) });
    await follower.followed();
    expect((await via(`/${id}/x`, key)).body).toEqual({ upstream: 'a', url: `/${id}/x` });

    const page = await browser.context.newPage();
    await page.goto(`${s.url}/console/`);
    await page.getByLabel('Access key').fill(owner.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    await page.goto(`${s.url}/console/apis/${id}`);
    const live = page.getByRole('region', { name: 'Where it is live' });
    // The gateway reports after it applied (its status file comes first), so the page may have
    // read the report before it landed: ask again until it shows, as a user would. A deadline
    // for the failure's sake, which then says what the gateway and the service had.
    const appliedOnGateway = async () => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        await page.getByRole('button', { name: 'Check again' }).click();
        const row = await live.getByRole('row', { name: new RegExp(GATEWAY) }).innerText();
        if (/Applied/.test(row)) return;
        if (Date.now() > deadline) {
          const service = await s.dash(owner.key, 'GET', `/api/apis/${id}/gateways`);
          const version = await s.gw('GET', '/gw/routing/version');
          throw new Error(
            `not applied within 60 s: ${row}\nservice: ${JSON.stringify(service.body)} at ${JSON.stringify(version.body)}\n` +
              `gateway: ${JSON.stringify(follower.status())}\n${follower.log()}`,
          );
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    await appliedOnGateway();

    await page.getByLabel('Upstream URL').fill(b.url());
    await page.getByRole('button', { name: 'Save routing' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const deadline = Date.now() + 20_000;
    while ((await via(`/${id}/x`, key)).text !== JSON.stringify({ upstream: 'b', url: `/${id}/x` })) {
      if (Date.now() > deadline) throw new Error(`nginx did not move to b within 20 s:\n${follower.log()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await appliedOnGateway();

    await page.getByLabel('Listen path', { exact: true }).fill(`/${taken}/`);
    await page.getByRole('button', { name: 'Save routing' }).click();
    const field = page.getByLabel('Listen path', { exact: true });
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.field-error').first().innerText()).toContain(`listen path /${taken} is taken`);
    expect((await via(`/${id}/x`, key)).body).toEqual({ upstream: 'b', url: `/${id}/x` });
    expect(seriousOf(await axeViolations(page))).toEqual([]);
    await page.close();
  },
  180_000,
);
