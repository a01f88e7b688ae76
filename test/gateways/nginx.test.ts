/**
 * Real nginx (auth_request) in front of a small upstream, authorising every request through the
 * local stage with examples/nginx/api-gateway.conf as users copy it (docs/using/serving-apis.md).
 * nginx missing: installed when root, else the suite fails naming the command.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/client';
import { makeKey, rightsFor, uid } from '../support/fixtures';
import { SERVED_HOSTS, startNginx, type Nginx } from '../support/nginx';
import { startReceiver, type Receiver } from '../support/receiver';
import { onEmulator, startStage, type Stage } from '../support/stage';
import { GW_SECRET } from '../support/table';

// The webhook part needs the in-process stage's change feed (docs/developing/tests.md).
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

/** A classic API of `orgId` on `listenPath`; answers its api_id. */
async function plainApi(orgId: string, listenPath: string): Promise<string> {
  const apiId = uid('tb');
  const r = await s.gw('POST', '/gw/apis', {
    api_id: apiId,
    name: apiId,
    org_id: orgId,
    proxy: { listen_path: listenPath, target_url: 'http://upstream.example' },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return apiId;
}

suite('the trust boundary through nginx (contract §13)', () => {
  let evil: { orgId: string; key: string };
  let root: string;
  let books: string;
  let admin: string;
  let acmeKey: string;
  let evilApi: string;
  let evilPath: string;
  let evilKey: string;
  beforeAll(async () => {
    if (onEmulator) return;
    evil = await s.tenant();
    root = `/${uid('books')}`;
    books = await plainApi(t.orgId, `${root}/`);
    admin = await plainApi(t.orgId, `${root}/admin/`);
    acmeKey = (await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(books) })).key;
    evilPath = `/${uid('evil')}`;
    evilApi = await plainApi(evil.orgId, `${evilPath}/`);
    evilKey = (await makeKey(s, { org_id: evil.orgId, access_rights: rightsFor(evilApi) })).key;
  });

  const get = (path: string, headers: Record<string, string>, base = nginx.url) => request(base, 'GET', path, { headers, verbatim: true });

  it("another organisation cannot take a domain or nest a path to receive this organisation's traffic", async () => {
    expect((await get(`${root}/x`, { authorization: acmeKey })).status).toBe(200);
    const evilDomain = await s.dash(evil.key, 'POST', '/api/apis', {
      api_definition: { api_id: uid('evilhost'), name: 'h', domain: '127.0.0.1', proxy: { listen_path: '/', target_url: 'http://evil.example' } },
    });
    expect(evilDomain.status).toBe(422);
    const nested = await s.dash(evil.key, 'POST', '/api/apis', {
      api_definition: { api_id: uid('nested'), name: 'n', proxy: { listen_path: `${root}/internal/`, target_url: 'http://evil.example' } },
    });
    expect(nested.status).toBe(409);
    expect(nested.body.Message).toBe(`listen path ${root}/internal is taken`);
    // Nothing moved: this organisation's key still reaches its API, the other's nothing of it.
    const before = seen.length;
    const mine = await get(`${root}/internal/data`, { authorization: acmeKey });
    expect(mine.status).toBe(200);
    expect(seen.at(-1)!.headers['x-gw-api-id']).toBe(books);
    expect((await get(`${root}/internal/data`, { authorization: evilKey })).status).toBe(403);
    expect(seen.length - before).toBe(1);
  });

  it('no client copy of a routing hint changes the decision', async () => {
    const hints: Array<[string, Record<string, string>, string]> = [
      ['X-Gw-Api-Id', { 'x-gw-api-id': evilApi }, ''],
      ['X-Gw-Key-Header', { 'x-gw-key-header': 'x-evil-key', 'x-evil-key': evilKey }, ''],
      ['X-Gw-Key-Param', { 'x-gw-key-param': 'k' }, `?k=${evilKey}`],
      ['X-Original-URI', { 'x-original-uri': `${evilPath}/x` }, ''],
      ['X-Original-Host', { 'x-original-host': 'evil.example' }, ''],
      ['X-Forwarded-Host', { 'x-forwarded-host': 'evil.example' }, ''],
      ['X-Original-Method', { 'x-original-method': 'DELETE' }, ''],
    ];
    const answers: Array<[string, number, number, string | undefined]> = [];
    for (const [name, headers, query] of hints) {
      const before = seen.length;
      // The other organisation's key on this organisation's admin API: 403 without any hint.
      const theirs = await get(`${root}/admin/secret${query}`, { authorization: evilKey, ...headers });
      // This organisation's key on its own API: 200, decided as books whatever the hint says.
      const mine = await get(`${root}/x${query}`, { authorization: acmeKey, ...headers });
      answers.push([name, theirs.status, mine.status, seen.length - before === 1 ? String(seen.at(-1)!.headers['x-gw-api-id']) : undefined]);
    }
    expect(answers).toEqual(hints.map(([name]) => [name, 403, 200, books]));
    // No key but the other organisation's in the hints: 401, as with no key at all.
    expect((await get(`${root}/x`, { 'x-gw-key-header': 'x-evil-key', 'x-evil-key': acmeKey })).status).toBe(401);
    expect(admin).toBeTruthy();
  });

  it('a Host this nginx does not serve is refused there; a domain of another organisation routes only its APIs', async () => {
    const r = await get(`${root}/x`, { authorization: acmeKey, host: 'evil.example' });
    expect([r.status, r.body]).toEqual([404, { status: 'error', message: 'Unknown host' }]);
    // An operator serving a domain granted to the other organisation on the same nginx.
    const dom = `${uid('evil')}.example`;
    expect((await s.admin('PUT', `/admin/organisations/${evil.orgId}/domains/${dom}`)).status).toBe(200);
    const both = await startNginx({
      control: s.url,
      secret: GW_SECRET,
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      serverNames: `${SERVED_HOSTS} ${dom}`,
    });
    try {
      const before = seen.length;
      const onTheirs = await get(`${root}/x`, { authorization: acmeKey, host: dom }, both.url);
      expect([onTheirs.status, onTheirs.body]).toEqual([404, { status: 'error', message: 'No API listens here' }]);
      expect((await get(`${evilPath}/x`, { authorization: evilKey, host: dom }, both.url)).status).toBe(200);
      expect((await get(`${root}/x`, { authorization: acmeKey }, both.url)).status).toBe(200);
      expect(seen.length - before).toBe(2);
    } finally {
      await both.close();
    }
  });

  it('every spelling of a path is decided as the path the upstream acts on, and the upstream receives that path', async () => {
    const table: Array<[string, number, string | null]> = [
      [`${root}/x?q=1`, 200, `${root}/x?q=1`],
      [`${root}/./x`, 200, `${root}/x`],
      [`${root}//x`, 200, `${root}/x`],
      [`${root}/%78`, 200, `${root}/x`],
      [`${root}/a%20b`, 200, `${root}/a%20b`],
      [`${root}/admin/x`, 403, null],
      [`${root}/../${root.slice(1)}/admin/x`, 403, null],
      [`${root}/%2e%2e/${root.slice(1)}/admin/x`, 403, null],
      [`${root}/./admin/x`, 403, null],
      [`${root}/%61dmin/x`, 403, null],
      [`${root}/admin%2Fx`, 400, null],
      [`${root}/admin%5Cx`, 400, null],
      [`${root}/admin\\x`, 400, null],
      [`${root}/admin;x/x`, 400, null],
    ];
    const got: Array<[string, number, string | null]> = [];
    for (const [path] of table) {
      const before = seen.length;
      const r = await get(path, { authorization: acmeKey });
      got.push([path, r.status, seen.length > before ? seen.at(-1)!.url : null]);
    }
    expect(got, nginx.errors()).toEqual(table);
    const refused = await get(`${root}/admin;x/x`, { authorization: acmeKey });
    expect(refused.body.message).toMatch(/read in different ways/);
  });

  it('allowed_urls cannot be climbed out of with dot segments through nginx', async () => {
    const rights = { [books]: { api_id: books, api_name: books, versions: ['Default'], allowed_urls: [{ url: '^/public', methods: ['GET'] }] } };
    const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rights });
    const statuses = [];
    for (const path of [`${root}/public/a`, `${root}/public/../private/a`, `${root}/public/%2e%2e/private/a`]) {
      statuses.push((await get(path, { authorization: key })).status);
    }
    expect(statuses).toEqual([200, 403, 403]);
  });
});
