/**
 * Definitions drive traffic on nginx: `gwctl gateway nginx --watch` follows the routing table and
 * real nginx (Debian's nginx-light) serves what dashboard users define: the listen path stripped
 * as defined, the quota exact, a changed target moving the traffic, a deactivated or deleted API
 * answering 404, two organisations never receiving each other's requests, and a definition nginx
 * cannot express reported and left out while the rest is served.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/client';
import { makeKey, rightsFor, uid } from '../support/fixtures';
import { startFollower, startNginxWith, type Follower, type FollowingNginx } from '../support/nginx';
import { onEmulator, startStage, type Stage } from '../support/stage';
import { GW_SECRET } from '../support/table';

// gwctl follows the in-process stage's routing table (docs/developing/tests.md).
const suite = onEmulator ? describe.skip : describe;

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}
function upstream(name: string): { server: Server; seen: Seen[]; url: () => string } {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ upstream: name, url: req.url }));
  });
  return { server, seen, url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let s: Stage;
let nginx: FollowingNginx;
let follower: Follower;
let acme: { orgId: string; key: string };
let other: { orgId: string; key: string };
const a = upstream('a');
const b = upstream('b');
const followed = () => follower.followed();
const status = () => follower.status();

beforeAll(async () => {
  if (onEmulator) return;
  process.env.ALLOW_PRIVATE_TARGETS = '1';
  s = await startStage();
  acme = await s.tenant();
  other = await s.tenant();
  await Promise.all([a, b].map((u) => new Promise<void>((r) => u.server.listen(0, '127.0.0.1', r))));
  nginx = await startNginxWith((listen) => `server { listen ${listen} default_server; return 404; }\n`);
  follower = await startFollower(nginx, s, { gatewaySecret: GW_SECRET });
});
afterAll(async () => {
  follower?.stop();
  await nginx?.close();
  await Promise.all([a, b].map((u) => new Promise((r) => u.server.close(r))));
  await s?.close();
  delete process.env.ALLOW_PRIVATE_TARGETS;
});

/**
 * A request on a connection of its own: a kept-alive one may still be served by a worker of the
 * configuration before the last reload, for the moment that worker takes to finish.
 */
const via = (path: string, headers: Record<string, string> = {}) =>
  request(nginx.url, 'GET', path, { headers: { connection: 'close', ...headers }, verbatim: true });
const define = (key: string, api: Record<string, unknown>) => s.dash(key, 'POST', '/api/apis', { api_definition: api });

suite('gwctl gateway nginx --watch in front of real nginx', () => {
  it('a dashboard user defines an API and a key: nginx serves it, the listen path stripped, the quota exact', async () => {
    const id = uid('shop');
    expect(
      (await define(acme.key, { api_id: id, name: 'shop', proxy: { listen_path: `/${id}/`, target_url: `${a.url()}/base`, strip_listen_path: true } })).status,
    ).toBe(200);
    const { key } = await makeKey(s, { org_id: acme.orgId, access_rights: rightsFor(id), quota_max: 2, quota_renewal_rate: 3600 });
    await followed();
    const before = a.seen.length;
    const first = await via(`/${id}/pets?x=1`, { authorization: key });
    expect(first.status, `${nginx.errors()}\n${first.text}\n${JSON.stringify(a.seen)}`).toBe(200);
    expect(first.body).toEqual({ upstream: 'a', url: '/base/pets?x=1' });
    expect(a.seen.at(-1)!.headers).toMatchObject({ 'x-gw-api-id': id, 'x-gw-org-id': acme.orgId });
    expect(a.seen.at(-1)!.headers.authorization).toBeUndefined();
    expect((await via(`/${id}/./pets/../pets`, { authorization: key })).body).toEqual({ upstream: 'a', url: '/base/pets' });
    expect((await via(`/${id}/pets`, { authorization: key })).status).toBe(429);
    expect((await via(`/${id}/pets`)).status).toBe(401);
    expect(a.seen.length - before).toBe(2);
  });

  it('changing the target moves the traffic; deactivating or deleting the API answers 404', async () => {
    const id = uid('move');
    const def = (target: string, extra: Record<string, unknown> = {}) => ({
      api_id: id,
      name: 'm',
      proxy: { listen_path: `/${id}/`, target_url: target },
      ...extra,
    });
    expect((await define(acme.key, def(a.url()))).status).toBe(200);
    const { key } = await makeKey(s, { org_id: acme.orgId, access_rights: rightsFor(id) });
    await followed();
    expect((await via(`/${id}/x`, { authorization: key })).body).toEqual({ upstream: 'a', url: `/${id}/x` });
    expect((await s.dash(acme.key, 'PUT', `/api/apis/${id}`, { api_definition: def(b.url()) })).status).toBe(200);
    await followed();
    expect((await via(`/${id}/x`, { authorization: key })).body).toEqual({ upstream: 'b', url: `/${id}/x` });
    expect((await s.dash(acme.key, 'PUT', `/api/apis/${id}`, { api_definition: def(b.url(), { active: false }) })).status).toBe(200);
    await followed();
    const off = await via(`/${id}/x`, { authorization: key });
    expect([off.status, off.body]).toEqual([404, { status: 'error', message: 'No API listens here' }]);
    expect((await s.dash(acme.key, 'PUT', `/api/apis/${id}`, { api_definition: def(b.url()) })).status).toBe(200);
    await followed();
    const back = await via(`/${id}/x`, { authorization: key });
    expect(back.status, `${back.text}\n${follower.log()}`).toBe(200);
    expect((await s.dash(acme.key, 'DELETE', `/api/apis/${id}`)).status).toBe(200);
    await followed();
    const gone = await via(`/${id}/x`, { authorization: key });
    expect(gone.status, `${JSON.stringify(status())}\n${follower.log()}\n${readFileSync(nginx.include, 'utf8').includes(id)}`).toBe(404);
  });

  it("two organisations' APIs, on the shared hosts and on a granted domain, never receive each other's requests", async () => {
    const [mine, theirs] = [uid('mine'), uid('theirs')];
    const dom = `${uid('acme')}.example`;
    expect((await s.admin('PUT', `/admin/organisations/${acme.orgId}/domains/${dom}`)).status).toBe(200);
    const site = uid('site');
    expect((await define(acme.key, { api_id: mine, name: 'm', proxy: { listen_path: `/${mine}/`, target_url: a.url() } })).status).toBe(200);
    expect((await define(acme.key, { api_id: site, name: 's', domain: dom, use_keyless: true, proxy: { listen_path: '/', target_url: a.url() } })).status).toBe(
      200,
    );
    expect((await define(other.key, { api_id: theirs, name: 't', proxy: { listen_path: `/${theirs}/`, target_url: b.url() } })).status).toBe(200);
    const { key: acmeKey } = await makeKey(s, { org_id: acme.orgId, access_rights: rightsFor(mine) });
    const { key: otherKey } = await makeKey(s, { org_id: other.orgId, access_rights: rightsFor(theirs) });
    await followed();
    const [beforeA, beforeB] = [a.seen.length, b.seen.length];
    expect((await via(`/${mine}/x`, { authorization: otherKey })).status).toBe(403);
    expect((await via(`/${theirs}/x`, { authorization: acmeKey })).status).toBe(403);
    expect((await via(`/${mine}/x`, { authorization: otherKey, 'x-gw-api-id': theirs })).status).toBe(403);
    expect([a.seen.length - beforeA, b.seen.length - beforeB]).toEqual([0, 0]);
    // The granted domain serves only its organisation's routes: keyless at its root.
    expect((await via('/anything', { host: dom })).body).toEqual({ upstream: 'a', url: '/anything' });
    expect((await via(`/${theirs}/x`, { host: dom, authorization: otherKey })).body).toEqual({ upstream: 'a', url: `/${theirs}/x` });
    expect(b.seen.length - beforeB).toBe(0);
    expect((await via(`/${theirs}/x`, { authorization: otherKey })).body).toEqual({ upstream: 'b', url: `/${theirs}/x` });
  });

  it('a definition nginx cannot express is reported and left out; the rest is served', async () => {
    const [bad, badHeader, good] = [uid('nohost'), uid('dollar'), uid('good')];
    expect((await define(acme.key, { api_id: bad, name: 'n', proxy: { listen_path: `/${bad}/`, target_url: 'http://no-such-host.invalid' } })).status).toBe(
      200,
    );
    expect(
      (
        await define(acme.key, {
          api_id: badHeader,
          name: 'h',
          proxy: { listen_path: `/${badHeader}/`, target_url: a.url() },
          version_data: { default_version: 'Default', versions: { Default: { global_headers: { 'X-Cost': '$request_uri' } } } },
        })
      ).status,
    ).toBe(200);
    expect((await define(acme.key, { api_id: good, name: 'g', proxy: { listen_path: `/${good}/`, target_url: a.url() } })).status).toBe(200);
    const { key } = await makeKey(s, { org_id: acme.orgId, access_rights: rightsFor(bad, badHeader, good) });
    const st = await followed();
    expect(st.skipped).toContainEqual({ apiId: bad, reason: 'its upstream host no-such-host.invalid does not resolve from this gateway' });
    expect(st.skipped).toContainEqual({
      apiId: badHeader,
      reason: 'the value of its request header X-Cost holds a character nginx would read as syntax or a variable',
    });
    expect(st.failures, follower.log()).toBe(0);
    // What it followed is what it reports: the table's version and when that version moved.
    const table = (await s.gw('GET', '/gw/routing')).body as { version: number; changed_at: string };
    expect({ version: st.version, changed_at: st.changed_at }).toEqual({ version: table.version, changed_at: table.changed_at });
    expect((await via(`/${good}/x`, { authorization: key })).status).toBe(200);
    expect((await via(`/${bad}/x`, { authorization: key })).status).toBe(404);
    expect((await via(`/${badHeader}/x`, { authorization: key })).status).toBe(404);
  });
});
