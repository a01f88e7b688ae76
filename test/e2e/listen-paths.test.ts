/**
 * Listen path + custom domain claims (contract §13): the gateway routes every organisation's APIs
 * by them, so each (domain, normalised listen path) belongs to one API across the installation; a
 * custom domain must be granted to the API's organisation; on the shared hosts no listen path
 * nests with another organisation's and `/` alone is refused. On every write path: gateway OAS
 * and classic create and update, dashboard classic and OAS, import, streams PATCH, version links;
 * delete frees the claim. A taken path never says by whom.
 */
import { describe, expect, it } from 'vitest';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../shared/store/db/client';
import { claimKeys } from '../../shared/store/listen-claims';
import { sha256Hex } from '../../shared/lib/hashing';
import { useStage, useTenants } from '../support/file-stage';
import { petstoreJson } from '../unit/import-fixtures';

type Any = Record<string, any>;
const s = useStage();
const [a, b] = useTenants(s, 2);

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
const grant = (orgId: string, domain: string) => s.admin('PUT', `/admin/organisations/${orgId}/domains/${domain}`);
const taken = (path: string, domain = '') => `listen path ${path}${domain ? ` on domain ${domain}` : ''} is taken`;
const HINT = '; pass the listenPath query parameter to serve this API on another path';

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
    // Nobody holds / by importing without a listen path (and nobody may hold it on the shared hosts).
    expect((await create(id('nothing'), a.orgId, {})).status).toBe(200);
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
  it('a second API on a taken path is 409 saying only that it is taken, even in its own organisation, and is not stored', async () => {
    const first = id('first');
    expect((await create(first, a.orgId, server('/shop/'))).status).toBe(200);
    const second = id('second');
    const clash = await create(second, a.orgId, server('/shop/'));
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({
      status: 'error',
      message: taken('/shop'),
      errors: [{ path: 'x-gw-api-gateway.server.listenPath.value', message: taken('/shop') }],
    });
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
    expect(r.body).toEqual({ Status: 'Error', Message: `${taken('/held')}${HINT}`, Meta: { errors: [{ path: 'query.listenPath', message: taken('/held') }] } });
    expect(JSON.stringify(r.body)).not.toContain(held);
    expect(await count(b.key)).toBe(before);
    const gw = await create(id('b-held'), b.orgId, server('/held'));
    expect(gw.body.message).toBe(taken('/held'));
  });

  it('custom domains: the same path on another domain of the organisation is free, on the same domain (any case) taken', async () => {
    const [dom, other] = [`${id('api')}.example.com`, `${id('other')}.example.com`];
    expect((await grant(a.orgId, dom)).status).toBe(200);
    expect((await grant(a.orgId, other)).status).toBe(200);
    const plain = id('plain');
    expect((await create(plain, a.orgId, server('/dom/'))).status).toBe(200);
    expect((await create(id('on-domain'), a.orgId, server('/dom/', { customDomain: { enabled: true, name: dom } }))).status).toBe(200);
    const same = await create(id('same-domain'), a.orgId, server('/dom', { customDomain: { enabled: true, name: dom.toUpperCase() } }));
    expect(same.status).toBe(409);
    expect(same.body.message).toBe(taken('/dom', dom));
    // A domain that is not enabled routes on every host: it clashes with the plain API.
    expect((await create(id('disabled-domain'), a.orgId, server('/dom/', { customDomain: { enabled: false, name: other } }))).body.message).toBe(taken('/dom'));
    // Import's customDomain flag takes part too.
    expect((await importAt(a.key, `listenPath=/dom/&customDomain=${dom}`)).status).toBe(409);
    expect((await importAt(a.key, `listenPath=/dom/&customDomain=${other}`)).status).toBe(200);
  });

  it('internal APIs claim no path; making one routable takes its path or is refused', async () => {
    const open = id('open');
    expect((await create(open, a.orgId, server('/internal/'))).status).toBe(200);
    const hidden = id('hidden');
    expect((await create(hidden, a.orgId, server('/internal/'), { state: { active: true, internal: true } })).status).toBe(200);
    const exposed = await update(hidden, a.orgId, server('/internal/'), { state: { active: true, internal: false } });
    expect(exposed.status).toBe(409);
    expect(exposed.body.message).toBe(taken('/internal'));
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
    expect(clash.body.Message).toBe(`${taken('/streams-taken')}${HINT}`);
    expect((await s.gw('GET', `/gw/apis/${r.body.ID}`)).body.proxy.listen_path).toBe('/streams-own/');
  });

  it('a version on its base path is 409 (not a storage error), and the base is unchanged', async () => {
    const base = id('base');
    expect((await create(base, a.orgId, server('/versioned/'))).status).toBe(200);
    const child = id('child');
    const r = await create(child, a.orgId, server('/versioned/'), {}, `?base_api_id=${base}&new_version_name=v2`);
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(taken('/versioned'));
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
    expect((await importAt(a.key, 'listenPath=/moving/')).body.Message).toBe(`${taken('/moving')}${HINT}`);
    expect((await importAt(b.key, 'listenPath=/moving/')).body.Message).toBe(`${taken('/moving')}${HINT}`);
    // Now b's: a may not nest under it on the shared hosts, b may.
    expect((await importAt(a.key, 'listenPath=/moving/a/')).status).toBe(409);
    expect((await importAt(b.key, 'listenPath=/moving/b/')).status).toBe(200);
    // Moving it back to a is refused while b holds a path under it.
    expect((await update(moved, a.orgId, server('/moving/'))).status).toBe(409);
  });

  it('an API stored before claims existed takes its claim on its next write', async () => {
    const old = id('old');
    expect((await create(old, a.orgId, server('/legacy/'))).status).toBe(200);
    // As such an API is stored: no marker.
    await ddb().send(new DeleteCommand({ TableName: s.table, Key: claimKeys.of({ domain: '', path: '/legacy' }) }));
    await ddb().send(new DeleteCommand({ TableName: s.table, Key: claimKeys.shared(sha256Hex('legacy'), '/legacy') }));
    expect((await create(id('nested'), b.orgId, server('/legacy/b/'))).status).toBe(200);
    expect((await update(old, a.orgId, server('/legacy/'))).status).toBe(200);
    expect((await create(id('newcomer'), a.orgId, server('/legacy'))).body.message).toBe(taken('/legacy'));
    expect((await create(id('under'), b.orgId, server('/legacy/c/'))).body.message).toBe(taken('/legacy/c'));
  });
});

describe('contract §13: custom domains are granted, the shared hosts are common ground', () => {
  it('a custom domain not granted to the organisation is 422 on every write path, and nothing is stored', async () => {
    const dom = `${id('acme')}.example`;
    expect((await grant(a.orgId, dom)).status).toBe(200);
    const before = await count(b.key);
    const bad = [
      await create(id('g-oas'), b.orgId, server('/x/', { customDomain: { enabled: true, name: dom } })),
      await s.gw('POST', '/gw/apis', { api_id: id('g-classic'), org_id: b.orgId, domain: dom, proxy: { listen_path: '/x/' } }),
      await s.dash(b.key, 'POST', '/api/apis', { api_definition: { api_id: id('d-classic'), name: 'x', domain: dom, proxy: { listen_path: '/x/' } } }),
      await s.dash(b.key, 'POST', '/api/apis/oas', oas(id('d-oas'), b.orgId, server('/x/', { customDomain: { enabled: true, name: dom } }))),
      await importAt(b.key, `listenPath=/x/&customDomain=${dom}`),
      await importAt(b.key, `listenPath=/x/&customDomain=${id('nobody')}.example`),
      await s.gw('POST', '/gw/apis', { api_id: id('orgless'), domain: dom, proxy: { listen_path: '/x/' } }),
    ];
    expect(bad.map((r) => r.status)).toEqual([422, 422, 422, 422, 422, 422, 422]);
    expect(bad[0]!.body.message).toBe(`custom domain ${dom} is not granted to this organisation; an installation admin grants domains to organisations`);
    expect(bad[2]!.body.Meta).toEqual({ errors: [{ path: 'domain', message: 'not a domain of this organisation' }] });
    expect(await count(b.key)).toBe(before);
    // The owner may, at the root too.
    expect((await create(id('root'), a.orgId, server('/', { customDomain: { enabled: true, name: dom } }))).status).toBe(200);
  });

  it('a streams PATCH or an update onto a domain that is not granted is 422 and changes nothing', async () => {
    const r = await importAt(b.key, `listenPath=/${id('st')}/`);
    expect(r.status).toBe(200);
    const body = {
      openapi: '3.0.3',
      info: { title: 'S', version: '1' },
      paths: {},
      'x-gw-api-gateway': { info: { id: r.body.ID, name: 'S' }, server: server('/anything/') },
      'x-gw-streaming': { streams: { x: {} } },
    };
    const patch = await s.dash(b.key, 'PATCH', `/api/apis/streams/${r.body.ID}?customDomain=${id('x')}.example`, JSON.stringify(body), {
      'content-type': 'application/vnd.gw.streams.oas',
    });
    expect(patch.status).toBe(422);
    const g = id('upd');
    expect((await create(g, b.orgId, server(`/${g}/`))).status).toBe(200);
    expect((await update(g, b.orgId, server(`/${g}/`, { customDomain: { enabled: true, name: `${id('y')}.example` } }))).status).toBe(422);
    expect((await s.gw('GET', `/gw/apis/oas/${g}`)).headers.get('etag')).toBe('"1"');
  });

  it('dashboard replaces onto a domain: 422 when it is not granted, 200 once it is', async () => {
    const dom = `${id('dash')}.example`;
    const classic = id('dclassic');
    const def = (domain?: string) => ({
      api_definition: { api_id: classic, name: 'c', ...(domain ? { domain } : {}), proxy: { listen_path: `/${classic}/` } },
    });
    expect((await s.dash(b.key, 'POST', '/api/apis', def())).status).toBe(200);
    expect((await s.dash(b.key, 'PUT', `/api/apis/${classic}`, def(dom))).status).toBe(422);
    const oasId = id('doas');
    const doc = (domain?: string) => oas(oasId, b.orgId, server(`/${oasId}/`, domain ? { customDomain: { enabled: true, name: domain } } : {}));
    expect((await s.dash(b.key, 'POST', '/api/apis/oas', doc())).status).toBe(200);
    expect((await s.dash(b.key, 'PUT', `/api/apis/oas/${oasId}`, doc(dom))).status).toBe(422);
    expect((await grant(b.orgId, dom)).status).toBe(200);
    expect((await s.dash(b.key, 'PUT', `/api/apis/${classic}`, def(dom))).status).toBe(200);
    expect((await s.dash(b.key, 'PUT', `/api/apis/oas/${oasId}`, doc(dom))).status).toBe(200);
    expect((await s.dash(b.key, 'GET', `/api/apis/oas/${oasId}`)).body['x-gw-api-gateway'].server.customDomain).toEqual({ enabled: true, name: dom });
  });

  it('a revoked domain: its APIs are kept, and their next write is 422 until granted again', async () => {
    const dom = `${id('rev')}.example`;
    expect((await grant(a.orgId, dom)).status).toBe(200);
    const api = id('on-rev');
    expect((await create(api, a.orgId, server('/r/', { customDomain: { enabled: true, name: dom } }))).status).toBe(200);
    expect((await s.admin('DELETE', `/admin/organisations/${a.orgId}/domains/${dom}`)).status).toBe(200);
    expect(await exists(api)).toBe(true);
    expect((await update(api, a.orgId, server('/r/', { customDomain: { enabled: true, name: dom } }))).status).toBe(422);
    expect((await grant(a.orgId, dom)).status).toBe(200);
    expect((await update(api, a.orgId, server('/r/', { customDomain: { enabled: true, name: dom } }))).status).toBe(200);
  });

  it('the root alone, and listen paths upstreams read in different ways, are 400 on the shared hosts', async () => {
    for (const path of ['/', '//', '/x/..']) {
      const r = await create(id('root'), a.orgId, server(path));
      expect(r.status, path).toBe(400);
      expect(r.body.errors).toEqual([
        {
          path: 'x-gw-api-gateway.server.listenPath.value',
          message: 'a listen path on the shared hosts needs at least one segment; `/` alone is only for a custom domain granted to the organisation',
        },
      ]);
    }
    expect((await s.gw('POST', '/gw/apis', { api_id: id('c'), org_id: a.orgId, proxy: { listen_path: '/' } })).body.errors[0].path).toBe('proxy.listen_path');
    for (const path of ['/a%2Fb/', '/a;v=1/', '/a\\b/']) expect((await create(id('odd'), a.orgId, server(path))).status, path).toBe(400);
    expect((await importAt(a.key, 'listenPath=/')).status).toBe(400);
    // Spellings of one path are one claim.
    const plain = id('spelt');
    expect((await create(plain, a.orgId, server(`/${plain}/`))).status).toBe(200);
    expect((await create(id('again'), a.orgId, server(`/x/../${plain}/./`))).body.message).toBe(taken(`/${plain}`));
  });

  it('on the shared hosts another organisation may not claim a path equal to, above or under yours; your own may nest', async () => {
    const root = id('books');
    expect((await importAt(a.key, `listenPath=/${root}/`)).status).toBe(200);
    expect((await importAt(a.key, `listenPath=/${root}/admin/`)).status).toBe(200);
    const before = await count(b.key);
    for (const path of [`/${root}/`, `/${root}/internal/`, `/${root}/admin/x/`]) {
      const r = await importAt(b.key, `listenPath=${path}`);
      expect(r.status, path).toBe(409);
      expect(r.body.Message).toBe(`${taken(path.replace(/\/$/, ''))}${HINT}`);
      expect(JSON.stringify(r.body)).not.toContain(a.orgId);
    }
    const deep = id('deep');
    expect((await importAt(a.key, `listenPath=/${deep}/v1/users/`)).status).toBe(200);
    expect((await importAt(b.key, `listenPath=/${deep}/`)).status).toBe(409);
    expect((await importAt(b.key, `listenPath=/${deep}/v1/`)).status).toBe(409);
    // Siblings do not nest.
    expect((await importAt(b.key, `listenPath=/${deep}/v2/`)).status).toBe(200);
    expect((await importAt(b.key, `listenPath=/${root}x/`)).status).toBe(200);
    expect(await count(b.key)).toBe(before + 2);
    // Nor does a domain claim nest with the shared hosts.
    const dom = `${id('bdom')}.example`;
    expect((await grant(b.orgId, dom)).status).toBe(200);
    expect((await importAt(b.key, `listenPath=/${root}/internal/&customDomain=${dom}`)).status).toBe(200);
  });

  it('two organisations claiming nesting paths at once: exactly one of them gets it', async () => {
    for (let round = 0; round < 5; round++) {
      const p = id('race');
      const [ra, rb] = await Promise.all([importAt(a.key, `listenPath=/${p}/`), importAt(b.key, `listenPath=/${p}/deeper/`)]);
      expect([ra.status, rb.status].sort(), JSON.stringify([ra.body, rb.body])).toEqual([200, 409]);
    }
  });
});
