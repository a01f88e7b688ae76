/**
 * An organisation's developer portal on a domain granted to it (docs/using/developer-portal.md
 * "On your own domain"), served by real nginx from the file `gwctl gateway nginx --watch` renders:
 * the portal names only a domain of its organisation; on that domain `/` leads to the portal, its
 * pages and routes reach the control plane, and nothing of another organisation's portal or of the
 * dashboard does; the sign-in counts attempts by the viewer's address nginx saw, never by one a
 * client wrote; revoking the domain takes the portal off it. In chromium the portal works on the
 * domain: `/` leads to the catalogue, and a developer signed up through the domain signs in and reaches my keys.
 */
import { request as httpRequest } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConsoleBuilt } from '../../console/host/build';
import { CONTENT_SECURITY_POLICY } from '../../console/host/headers';
import { launchChromium, type Browser } from '../support/chromium';
import { request } from '../support/client';
import { scanAll } from '../support/org-items';
import { startFollower, startNginxWith, type Follower, type FollowingNginx } from '../support/nginx';
import { onEmulator, startStage, type Stage } from '../support/stage';
import { GW_SECRET } from '../support/table';

// gwctl follows the in-process stage's routing table (docs/developing/tests.md).
const suite = onEmulator ? describe.skip : describe;

let s: Stage;
let nginx: FollowingNginx;
let follower: Follower;
let acme: { orgId: string; key: string };
let other: { orgId: string; key: string };
let domain: string;
let browser: Browser | undefined;

const grant = (orgId: string, d: string) => s.admin('PUT', `/admin/organisations/${orgId}/domains/${d}`);
const settings = (key: string, body: Record<string, unknown>) => s.dash(key, 'PUT', '/api/portal/settings', { enabled: true, sign_up: 'open', ...body });
/** A request to nginx for `host`, on a connection of its own (a kept-alive one may reach a worker of the last configuration). */
const via = (path: string, host: string, o: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) =>
  request(nginx.url, o.method ?? 'GET', path, { headers: { connection: 'close', host, ...o.headers }, body: o.body, verbatim: true });

/** A sign-in to nginx from the loopback address `from`: nginx sees it as the viewer, the control plane sees nginx. */
function signInFrom(from: string, host: string, orgId: string, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({ email_address: 'nobody@example.com', password: 'not a password of anyone' });
  const { port } = new URL(nginx.url);
  return new Promise((done, fail) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        localAddress: from,
        method: 'POST',
        path: `/portal/${orgId}/sessions`,
        headers: { host, connection: 'close', 'content-type': 'application/json', ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}
const sourceWindows = async () => (await scanAll(s.table)).map((i) => String(i.PK)).filter((pk) => pk.startsWith('SIGNIN#SRC#'));

beforeAll(async () => {
  if (onEmulator) return;
  ensureConsoleBuilt();
  s = await startStage();
  acme = await s.tenant();
  other = await s.tenant();
  domain = `developers.${acme.orgId}.test`.toLowerCase();
  nginx = await startNginxWith((listen) => `server { listen ${listen} default_server; return 404; }\n`);
  follower = await startFollower(nginx, s, { gatewaySecret: GW_SECRET });
}, 600_000);
afterAll(async () => {
  await browser?.close();
  follower?.stop();
  await nginx?.close();
  await s?.close();
});

suite("the developer portal on its organisation's domain, served by nginx", () => {
  it('names only a domain granted to its organisation: 422 otherwise, and nothing stored', async () => {
    const refused = await settings(acme.key, { domain });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('not granted to this organisation');
    expect((await s.dash(acme.key, 'GET', '/api/portal/settings')).body.domain).toBeUndefined();
    expect((await grant(acme.orgId, domain)).status).toBe(200);
    // Another organisation's portal cannot name it either.
    expect((await settings(other.key, { domain })).status).toBe(422);
    expect((await s.dash(other.key, 'GET', '/api/portal/settings')).body.domain).toBeUndefined();
  });

  it('on the domain, / leads to the portal, whose pages and routes reach the control plane', async () => {
    const before = (await s.gw('GET', '/gw/routing/version')).body.version;
    const saved = await settings(acme.key, { domain: domain.toUpperCase(), title: 'Acme developers' });
    expect(saved.status, saved.text).toBe(200);
    expect((await s.dash(acme.key, 'GET', '/api/portal/settings')).body.domain).toBe(domain);
    expect((await s.gw('GET', '/gw/routing/version')).body.version).toBeGreaterThan(before);
    const table = (await s.gw('GET', '/gw/routing')).body;
    expect(table.hosts.find((h: { host: string }) => h.host === domain).portal.orgId).toBe(acme.orgId);
    await follower.followed();

    const home = await via('/', domain);
    expect(home.status).toBe(302);
    expect(home.headers.get('location')).toBe(`/console/portal/${acme.orgId}/`);
    const page = await via(`/console/portal/${acme.orgId}/`, domain);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(page.text)![1]!;
    expect((await via(script, domain)).status).toBe(200);
    const catalogue = await via(`/portal/${acme.orgId}/catalogue`, domain);
    expect(catalogue.status).toBe(200);
    expect(catalogue.body.title).toBe('Acme developers');
  });

  it("reaches nothing of another organisation's portal, nor the dashboard, nor the portal by a path nginx reads otherwise", async () => {
    expect((await settings(other.key, {})).status).toBe(200);
    expect((await s.call('GET', `/portal/${other.orgId}/catalogue`)).status).toBe(200);
    await follower.followed();
    for (const path of [`/portal/${other.orgId}/catalogue`, `/console/portal/${other.orgId}/`, '/console/', '/console/index.html', '/api/apis', '/gw/routing'])
      expect((await via(path, domain)).status, path).toBe(404);
    // nginx reads dots and slashes encoded or not: out of the portal's paths is nowhere, and in them the control plane
    // would read the path as sent, so an encoded one is refused there.
    expect((await via(`/portal/${acme.orgId}/%2e%2e/${other.orgId}/catalogue`, domain)).status).toBe(404);
    expect((await via(`/portal/${acme.orgId}/x/%2e%2e/catalogue`, domain)).status).toBe(400);
    expect((await via(`/portal/${acme.orgId}/x/..%2Fcatalogue`, domain)).status).toBe(400);
    expect((await via(`/portal/${acme.orgId}/catalogue`, domain)).status).toBe(200);
    // The shared hosts do not carry an organisation's portal.
    expect((await via(`/portal/${acme.orgId}/catalogue`, '127.0.0.1')).status).toBe(404);
  });

  it("counts sign-in attempts by the viewer's address nginx saw, never by one the client wrote", async () => {
    const status = await signInFrom('127.0.0.2', domain, acme.orgId, { 'x-gw-viewer-address': '192.0.2.99', 'x-gw-authorization': 'a guess' });
    expect(status).toBe(401);
    const windows = await sourceWindows();
    expect(windows).toContain('SIGNIN#SRC#127.0.0.2');
    expect(windows.some((pk) => pk.includes('192.0.2.99'))).toBe(false);
    // Sent to the control plane itself, the address counts only beside the gateway's credential.
    const direct = (viewer: string, secret: string) =>
      s.call('POST', `/portal/${acme.orgId}/sessions`, {
        headers: { 'x-gw-viewer-address': viewer, 'x-gw-authorization': secret },
        body: { email_address: 'nobody@example.com', password: 'not a password of anyone' },
      });
    expect((await direct('192.0.2.55', GW_SECRET)).status).toBe(401);
    expect((await direct('192.0.2.56', 'a guess')).status).toBe(401);
    const after = await sourceWindows();
    expect(after).toContain('SIGNIN#SRC#192.0.2.55');
    expect(after.some((pk) => pk.includes('192.0.2.56'))).toBe(false);
  });

  it('works in chromium on the domain: / leads to the catalogue; a developer signed up through the domain signs in to my keys', async () => {
    browser = await launchChromium([domain]);
    const tab: Page = await browser.context.newPage();
    const problems: string[] = [];
    tab.on('pageerror', (e) => problems.push(e.message));
    tab.on('console', (m) => /Content Security Policy/i.test(m.text()) && problems.push(m.text()));
    const origin = `http://${domain}:${new URL(nginx.url).port}`;
    await tab.goto(`${origin}/`);
    await tab.getByRole('heading', { level: 1, name: 'Acme developers' }).waitFor();
    expect(new URL(tab.url()).pathname).toBe(`/console/portal/${acme.orgId}/`);
    const developer = { email_address: 'ada@example.com', password: 'correct horse battery staple' };
    expect((await via(`/portal/${acme.orgId}/developers`, domain, { method: 'POST', body: developer })).status).toBe(200);
    await tab.goto(`${origin}/console/portal/${acme.orgId}/sign-in`);
    await tab.getByLabel('E-mail address').fill(developer.email_address);
    await tab.getByLabel('Password').fill(developer.password);
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.getByRole('heading', { level: 1, name: 'My keys' }).waitFor();
    expect(await tab.evaluate(`sessionStorage.getItem('gw-portal.session.${acme.orgId}')`)).toMatch(/^dps_/);
    expect(problems).toEqual([]);
  });

  it('leaves the domain when the grant is revoked', async () => {
    expect((await s.admin('DELETE', `/admin/organisations/${acme.orgId}/domains/${domain}`)).status).toBe(200);
    await follower.followed();
    expect((await via(`/portal/${acme.orgId}/catalogue`, domain)).status).toBe(404);
    expect((await s.gw('GET', '/gw/routing')).body.hosts.some((h: { host: string }) => h.host === domain)).toBe(false);
  });
});
