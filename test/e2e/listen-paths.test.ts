/**
 * Listen path + custom domain claims (README, "Choices where the spec is silent"): the gateway
 * routes every organisation's APIs by them, so each (domain, normalised listen path) belongs to
 * one API across the installation, on every write path: gateway OAS and classic create and
 * update, import, streams PATCH, version links; delete frees it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../shared/store/db/client';
import { apiKeys } from '../../shared/store/apis';
import { startStage, type Stage } from '../support/stage';
import { petstoreJson } from '../unit/import-fixtures';

type Any = Record<string, any>;
let s: Stage;
let a: { orgId: string; key: string };
let b: { orgId: string; key: string };
beforeAll(async () => {
  s = await startStage();
  a = await s.tenant();
  b = await s.tenant();
});
afterAll(() => s.close());

let n = 0;
const id = (p: string) => `${p}-${++n}-${Date.now().toString(36)}`;
const server = (path: string, extra: Any = {}) => ({ listenPath: { value: path, strip: true }, ...extra });
const oas = (apiId: string, orgId: string, srv: Any, info: Any = {}) => ({
  openapi: '3.0.3',
  info: { title: apiId, version: '1' },
  paths: {},
  'x-gw-api-gateway': { info: { id: apiId, orgId, state: { active: true }, ...info }, server: srv, upstream: { url: 'http://u.example' } },
});
const create = (apiId: string, orgId: string, srv: Any, info?: Any, query = '') => s.gw('POST', `/gw/apis/oas${query}`, oas(apiId, orgId, srv, info));
const update = (apiId: string, orgId: string, srv: Any, info?: Any) => s.gw('PUT', `/gw/apis/oas/${apiId}`, oas(apiId, orgId, srv, info));
const importAt = (key: string, query: string) => s.dash(key, 'POST', `/api/apis/oas/import?${query}`, petstoreJson, { 'content-type': 'application/json' });
const exists = async (apiId: string) => (await s.gw('GET', `/gw/apis/${apiId}`)).status === 200;
const count = async (key: string) => (await s.dash(key, 'GET', '/api/apis?p=-1')).body.apis.length as number;

describe('imports without listenPath (contract §8: the default is /<slug of the title>/)', () => {
  const titled = (title: string) => JSON.stringify({ ...JSON.parse(petstoreJson), info: { title, version: '1' } });
  const importTitled = (key: string, title: string) => s.dash(key, 'POST', '/api/apis/oas/import', titled(title), { 'content-type': 'application/json' });

  it('two organisations importing documents with different titles both succeed, each on its own path', async () => {
    const [ta, tb] = [`Orders ${id('t')}`, `Billing ${id('t')}`];
    const ra = await importTitled(a.key, ta);
    const rb = await importTitled(b.key, tb);
    expect(ra.status, JSON.stringify(ra.body)).toBe(200);
    expect(rb.status, JSON.stringify(rb.body)).toBe(200);
    const pathOf = async (apiId: string) => (await s.gw('GET', `/gw/apis/${apiId}`)).body.proxy.listen_path as string;
    expect(await pathOf(ra.body.ID)).toBe(`/${ta.toLowerCase().replace(/[^a-z0-9]+/g, '-')}/`);
    expect(await pathOf(rb.body.ID)).toBe(`/${tb.toLowerCase().replace(/[^a-z0-9]+/g, '-')}/`);
    // Nobody holds / by importing without a listen path.
    expect((await create(id('root'), a.orgId, server('/'))).status).toBe(200);
  });

  it('the same title twice is 409, and the message says to pass listenPath; with it the import succeeds', async () => {
    const title = `Shared ${id('t')}`;
    expect((await importTitled(a.key, title)).status).toBe(200);
    const before = await count(b.key);
    const clash = await importTitled(b.key, title);
    expect(clash.status).toBe(409);
    expect(clash.body.Message).toContain('pass the listenPath query parameter');
    expect(await count(b.key)).toBe(before);
    const own = await s.dash(b.key, 'POST', `/api/apis/oas/import?listenPath=/${id('own')}/`, titled(title), { 'content-type': 'application/json' });
    expect(own.status).toBe(200);
  });
});

describe('one API per domain and listen path', () => {
  it('a second API on a taken path is 409 naming the holder in its own organisation, and is not stored', async () => {
    const first = id('first');
    expect((await create(first, a.orgId, server('/shop/'))).status).toBe(200);
    const second = id('second');
    const clash = await create(second, a.orgId, server('/shop/'));
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({ status: 'error', message: `listen path /shop is already used by API ${first}` });
    expect(await exists(second)).toBe(false);
    // Written the other ways, the path is the same one.
    for (const path of ['/shop', 'shop/', '//shop//']) expect((await create(id('again'), a.orgId, server(path))).status, path).toBe(409);
    expect((await s.gw('POST', '/gw/apis', { api_id: id('classic'), org_id: a.orgId, proxy: { listen_path: '/shop' } })).status).toBe(409);
    // Paths are case-sensitive, and a longer path is another path (the gateway routes the longest).
    expect((await create(id('case'), a.orgId, server('/Shop/'))).status).toBe(200);
    expect((await create(id('deeper'), a.orgId, server('/shop/v2/'))).status).toBe(200);
  });

  it("another organisation's holder is not named: the answer says only that the path is taken", async () => {
    const held = id('held');
    expect((await create(held, a.orgId, server('/held/'))).status).toBe(200);
    const before = await count(b.key);
    const r = await importAt(b.key, 'listenPath=/held/');
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      Status: 'Error',
      Message: 'listen path /held is already used by an API of another organisation; pass the listenPath query parameter to serve this API on another path',
      Meta: null,
    });
    expect(JSON.stringify(r.body)).not.toContain(held);
    expect(await count(b.key)).toBe(before);
    const gw = await create(id('b-held'), b.orgId, server('/held'));
    expect(gw.body.message).toBe('listen path /held is already used by an API of another organisation');
  });

  it('custom domains: the same path on another enabled domain is free, on the same domain (any case) taken', async () => {
    const plain = id('plain');
    expect((await create(plain, a.orgId, server('/dom/'))).status).toBe(200);
    const onDomain = id('on-domain');
    expect((await create(onDomain, a.orgId, server('/dom/', { customDomain: { enabled: true, name: 'api.example.com' } }))).status).toBe(200);
    const same = await create(id('same-domain'), b.orgId, server('/dom', { customDomain: { enabled: true, name: 'API.Example.COM' } }));
    expect(same.status).toBe(409);
    expect(same.body.message).toBe('listen path /dom on domain api.example.com is already used by an API of another organisation');
    // A domain that is not enabled routes on every host: it clashes with the plain API.
    expect((await create(id('disabled-domain'), a.orgId, server('/dom/', { customDomain: { enabled: false, name: 'other.example.com' } }))).body.message).toBe(
      `listen path /dom is already used by API ${plain}`,
    );
    // Import's customDomain flag takes part too.
    expect((await importAt(b.key, 'listenPath=/dom/&customDomain=api.example.com')).status).toBe(409);
    expect((await importAt(b.key, 'listenPath=/dom/&customDomain=b.example.com')).status).toBe(200);
  });

  it('internal APIs claim no path; making one routable takes its path or is refused', async () => {
    const open = id('open');
    expect((await create(open, a.orgId, server('/internal/'))).status).toBe(200);
    const hidden = id('hidden');
    expect((await create(hidden, a.orgId, server('/internal/'), { state: { active: true, internal: true } })).status).toBe(200);
    const exposed = await update(hidden, a.orgId, server('/internal/'), { state: { active: true, internal: false } });
    expect(exposed.status).toBe(409);
    expect((await s.gw('GET', `/gw/apis/oas/${hidden}`)).headers.get('etag')).toBe('"1"');
    // An inactive API keeps its path, so switching it back on can never clash.
    expect((await update(open, a.orgId, server('/internal/'), { state: { active: false } })).status).toBe(200);
    expect((await update(hidden, a.orgId, server('/internal/'), { state: { active: true, internal: false } })).status).toBe(409);
  });

  it('an update that moves an API frees its old path and takes the new one; delete frees it', async () => {
    const mover = id('mover');
    expect((await create(mover, a.orgId, server('/old/'))).status).toBe(200);
    const blocker = id('blocker');
    expect((await create(blocker, a.orgId, server('/taken/'))).status).toBe(200);
    const refused = await update(mover, a.orgId, server('/taken/'));
    expect(refused.status).toBe(409);
    expect((await s.gw('GET', `/gw/apis/${mover}`)).body.proxy.listen_path).toBe('/old/');
    expect((await create(id('nope'), a.orgId, server('/old/'))).status).toBe(409);

    expect((await update(mover, a.orgId, server('/new/'))).status).toBe(200);
    expect((await create(id('late'), a.orgId, server('/old/'))).status).toBe(200);
    expect((await create(id('late'), a.orgId, server('/new/'))).status).toBe(409);
    // Writing the same path again (no move) is fine.
    expect((await update(mover, a.orgId, server('/new/'))).status).toBe(200);

    expect((await s.gw('DELETE', `/gw/apis/${blocker}`)).status).toBe(200);
    expect((await create(id('after-delete'), a.orgId, server('/taken/'))).status).toBe(200);
  });

  it('the streams PATCH cannot move an API onto a taken path', async () => {
    const r = await importAt(a.key, 'listenPath=/streams-own/');
    expect(r.status).toBe(200);
    const other = id('streams-holder');
    expect((await create(other, b.orgId, server('/streams-taken/'))).status).toBe(200);
    const body = {
      openapi: '3.0.3',
      info: { title: 'S', version: '1' },
      paths: {},
      'x-gw-api-gateway': { info: { id: r.body.ID, name: 'S' }, server: server('/streams-own/') },
      'x-gw-streaming': { streams: { x: {} } },
    };
    const patch = (query: string) =>
      s.dash(a.key, 'PATCH', `/api/apis/streams/${r.body.ID}${query}`, JSON.stringify(body), { 'content-type': 'application/vnd.gw.streams.oas' });
    expect((await patch('')).status).toBe(200);
    const clash = await patch('?listenPath=/streams-taken/');
    expect(clash.status).toBe(409);
    expect(clash.body.Message).toBe(
      'listen path /streams-taken is already used by an API of another organisation; pass the listenPath query parameter to serve this API on another path',
    );
    expect((await s.gw('GET', `/gw/apis/${r.body.ID}`)).body.proxy.listen_path).toBe('/streams-own/');
  });

  it('a version on its base path is 409 (not a storage error), and the base is unchanged', async () => {
    const base = id('base');
    expect((await create(base, a.orgId, server('/versioned/'))).status).toBe(200);
    const child = id('child');
    const r = await create(child, a.orgId, server('/versioned/'), {}, `?base_api_id=${base}&new_version_name=v2`);
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(`listen path /versioned is already used by API ${base}`);
    expect(await exists(child)).toBe(false);
    expect((await s.gw('GET', `/gw/apis/oas/${base}`)).headers.get('etag')).toBe('"1"');
    expect((await create(child, a.orgId, server('/versioned/v2/'), {}, `?base_api_id=${base}&new_version_name=v2`)).status).toBe(200);
    // Deleting the version (which rewrites its base in the same transaction) frees its path only.
    expect((await s.gw('DELETE', `/gw/apis/${child}`)).status).toBe(200);
    expect((await create(id('reuse'), a.orgId, server('/versioned/v2/'))).status).toBe(200);
    expect((await create(id('reuse'), a.orgId, server('/versioned/'))).status).toBe(409);
  });

  it('an API moved to another organisation takes its claim along', async () => {
    const moved = id('moved');
    expect((await create(moved, a.orgId, server('/moving/'))).status).toBe(200);
    expect((await update(moved, b.orgId, server('/moving/'))).status).toBe(200);
    expect((await importAt(a.key, 'listenPath=/moving/')).body.Message).toBe(
      'listen path /moving is already used by an API of another organisation; pass the listenPath query parameter to serve this API on another path',
    );
    expect((await importAt(b.key, 'listenPath=/moving/')).body.Message).toBe(
      `listen path /moving is already used by API ${moved}; pass the listenPath query parameter to serve this API on another path`,
    );
  });

  it('an API stored before claims existed takes its claim on its next write', async () => {
    const old = id('old');
    expect((await create(old, a.orgId, server('/legacy/'))).status).toBe(200);
    // As such an API is stored: no marker.
    await ddb().send(new DeleteCommand({ TableName: s.table, Key: apiKeys.listen({ domain: '', path: '/legacy' }) }));
    expect((await update(old, a.orgId, server('/legacy/'))).status).toBe(200);
    expect((await create(id('newcomer'), a.orgId, server('/legacy'))).body.message).toBe(`listen path /legacy is already used by API ${old}`);
  });
});
