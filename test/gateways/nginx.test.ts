/**
 * Real nginx (auth_request) in front of a small upstream, authorising every request through the
 * local stage with examples/nginx/api-gateway.conf as users copy it (README "Put an API behind
 * it"). nginx missing: installed when root, else the suite fails naming the command.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/client';
import { makeKey, rightsFor, uid } from '../support/fixtures';
import { startNginx, type Nginx } from '../support/nginx';
import { startReceiver, type Receiver } from '../support/receiver';
import { onEmulator, startStage, type Stage } from '../support/stage';
import { GW_SECRET } from '../support/table';

// The webhook part needs the in-process stage's change feed (README "Tests").
const suite = onEmulator ? describe.skip : describe;

let s: Stage;
let nginx: Nginx;
let rx: Receiver;
let t: { orgId: string; key: string };
const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
const upstream = createServer((req, res) => {
  seen.push({ url: req.url ?? '', headers: req.headers });
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ upstream: true, url: req.url }));
});

beforeAll(async () => {
  if (onEmulator) return;
  process.env.ALLOW_PRIVATE_TARGETS = '1';
  s = await startStage({ changeFeed: true });
  t = await s.tenant();
  rx = await startReceiver();
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  nginx = await startNginx({ control: s.url, secret: GW_SECRET, upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` });
});
afterAll(async () => {
  await nginx?.close();
  await rx?.close();
  await new Promise((r) => upstream.close(r));
  await s?.close();
  delete process.env.ALLOW_PRIVATE_TARGETS;
});

/** A classic API on /<id>/ whose QuotaExceeded events go to the receiver's webhook. */
async function api(): Promise<string> {
  const hook = await s.dash(t.key, 'POST', '/api/hooks', { name: uid('hook'), method: 'POST', target_path: rx.url });
  expect(hook.status).toBe(200);
  const apiId = uid('ngx');
  const r = await s.gw('POST', '/gw/apis', {
    api_id: apiId,
    name: apiId,
    org_id: t.orgId,
    proxy: { listen_path: `/${apiId}/`, target_url: 'http://upstream.example' },
    event_handlers: { events: { QuotaExceeded: [{ handler_name: 'eh_web_hook_handler', handler_meta: { webhook_id: hook.body.Meta } }] } },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return apiId;
}

const via = (path: string, key?: string, method = 'GET') => request(nginx.url, method, path, { headers: key ? { authorization: `Bearer ${key}` } : {} });

suite('nginx auth_request in front of an API', () => {
  it('allowed requests reach the upstream with who called, never the key; quota 2 gives 200, 200, 429 with Retry-After', async () => {
    const apiId = await api();
    const { key, hash } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId), quota_max: 2, quota_renewal_rate: 3600 });
    const before = seen.length;
    const first = await via(`/${apiId}/pets?limit=1`, key);
    expect(first.status, nginx.errors()).toBe(200);
    expect(first.body).toEqual({ upstream: true, url: `/${apiId}/pets?limit=1` });
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    const arrived = seen.at(-1)!;
    expect(arrived.headers).toMatchObject({ 'x-gw-api-id': apiId, 'x-gw-key-hash': hash, 'x-gw-org-id': t.orgId, 'x-gw-quota-remaining': '1' });
    expect(arrived.headers.authorization).toBeUndefined();

    expect((await via(`/${apiId}/pets`, key, 'POST')).status).toBe(200);
    const third = await via(`/${apiId}/pets`, key);
    expect(third.status).toBe(429);
    const retry = Number(third.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(3500);
    expect(retry).toBeLessThanOrEqual(3600);
    expect(third.headers.get('x-ratelimit-remaining')).toBe('0');
    // Exactly the two allowed requests reached the upstream.
    expect(seen.length - before).toBe(2);
    expect((await s.gw('GET', `/gw/keys/${key}`)).body.quota_remaining).toBe(0);

    // Real traffic's refusal reaches the API's webhook.
    const [call] = await rx.waitFor(1, 15_000);
    expect(JSON.parse(call!.body)).toMatchObject({ event: 'QuotaExceeded', api_id: apiId, key_hash: hash, org_id: t.orgId });
  });

  it('no key or an unknown key is 401; a path outside allowed_urls is 403; nothing reaches the upstream', async () => {
    const apiId = await api();
    const rights = { [apiId]: { api_id: apiId, api_name: apiId, versions: ['Default'], allowed_urls: [{ url: '^/pets', methods: ['GET'] }] } };
    const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rights });
    const before = seen.length;
    const none = await via(`/${apiId}/pets`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await via(`/${apiId}/pets`, 'not-a-key')).status).toBe(401);
    expect((await via(`/${apiId}/orders`, key)).status).toBe(403);
    expect((await via(`/${apiId}/pets/7`, key, 'DELETE')).status).toBe(403);
    expect(seen.length - before).toBe(0);
    expect((await via(`/${apiId}/pets/7`, key)).status).toBe(200);
    expect(seen.length - before).toBe(1);
  });

  it('50 concurrent requests on quota 20: exactly 20 reach the upstream, 30 get 429', async () => {
    const apiId = await api();
    const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId), quota_max: 20, quota_renewal_rate: 3600 });
    const before = seen.length;
    const answers = await Promise.all(Array.from({ length: 50 }, () => via(`/${apiId}/burst`, key)));
    const tally = answers.reduce<Record<number, number>>((a, r) => ({ ...a, [r.status]: (a[r.status] ?? 0) + 1 }), {});
    expect(tally, nginx.errors()).toEqual({ 200: 20, 429: 30 });
    expect(seen.length - before).toBe(20);
  });

  it('a path no API listens on is 404 from nginx', async () => {
    const r = await via(`/${uid('nowhere')}/x`, 'some-key');
    expect(r.status).toBe(404);
  });

  it('keeps one connection to the control plane across checks, refusals included', async () => {
    // nginx reuses a connection to the auth server only for an answer it knows the end of without
    // reading a body: a Content-Length (not chunked) and, for refusals, the HEAD subrequest.
    let connections = 0;
    const counter = createTcpServer((client) => {
      connections++;
      const control = connect(Number(new URL(s.url).port), '127.0.0.1');
      client.pipe(control).pipe(client);
      client.on('error', () => control.destroy());
      control.on('error', () => client.destroy());
    });
    await new Promise<void>((r) => counter.listen(0, '127.0.0.1', r));
    const counted = await startNginx({
      control: `http://127.0.0.1:${(counter.address() as AddressInfo).port}`,
      secret: GW_SECRET,
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    });
    try {
      const apiId = await api();
      const rights = { [apiId]: { api_id: apiId, api_name: apiId, versions: ['Default'], allowed_urls: [{ url: '^/pets', methods: ['GET'] }] } };
      const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rights, quota_max: 2, quota_renewal_rate: 3600 });
      const through = (path: string, k?: string) => request(counted.url, 'GET', path, { headers: k ? { authorization: `Bearer ${k}` } : {} });
      const statuses = [];
      for (const [path, k] of [
        [`/${apiId}/pets`, key],
        [`/${apiId}/orders`, key],
        [`/${apiId}/pets`, 'not-a-key'],
        [`/${apiId}/pets`, key],
        [`/${apiId}/pets`, key],
        [`/${apiId}/pets`, key],
      ] as const) {
        statuses.push((await through(path, k)).status);
      }
      expect(statuses, counted.errors()).toEqual([200, 403, 401, 200, 429, 429]);
      expect(connections).toBe(1);
    } finally {
      await counted.close();
      await new Promise((r) => counter.close(r));
    }
  });
});
