/**
 * API definitions through the local stage (contract §7): OAS and classic create, read,
 * update and delete; the classic form of OAS APIs; large documents; validation paths.
 * The listing lives in apis-listing.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useStage } from '../support/file-stage';
import { GW_SECRET } from '../support/table';

type Json = Record<string, any>;
const GW = 'x-gw-api-gateway';
const HEX24 = /^[0-9a-f]{24}$/;

const s = useStage();
/** The organisations these tests name: a write naming one that does not exist is 422. */
const ORGS = [
  'org-any',
  'org-bare',
  'org-gen',
  'org-1',
  'org-2',
  'org-3',
  'org-x',
  'org-upd',
  'org-ub',
  'org-m',
  'org-e',
  'org-lww',
  'org-d',
  'org-d2',
  'org-g',
  'org-i',
  'org-map',
  'org-classic',
  'org-c2',
  'org-s',
  'org-t',
  'org-extra',
  'org-near',
  'org-over',
];
beforeAll(async () => {
  for (const id of ORGS) expect((await s.admin('POST', '/admin/organisations', { id })).status).toBe(200);
});

let seq = 0;
const uid = (prefix: string) => `${prefix}-${++seq}-${randomBytes(3).toString('hex')}`;

/** A full OpenAPI document with the gateway extension and members the service must not touch. */
function oasDoc(id: string, orgId: string, gw: Json = {}): Json {
  return {
    openapi: '3.0.3',
    info: { title: `Title of ${id}`, version: '2.1.0', description: 'Pets', contact: { email: 'a@b.example' } },
    servers: [{ url: 'https://api.example.com/v2', description: 'prod' }],
    tags: [{ name: 'pets' }],
    security: [{ key: [] }],
    paths: {
      '/pets': { get: { operationId: 'listPets', responses: { '200': { description: 'ok' } } } },
      '/pets/{id}': { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] },
    },
    components: {
      schemas: { Pet: { type: 'object', properties: { name: { type: 'string' } } } },
      securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'k' } },
    },
    'x-vendor-note': { keep: ['me', 1, null] },
    'x-gw-streaming': { streams: { s1: { input: 'kept' } } },
    [GW]: {
      info: { id, name: `API ${id}`, orgId, state: { active: true, internal: false } },
      // No listen path without an id: `/` alone is refused on the shared hosts (contract §13).
      server: id ? { listenPath: { value: `/${id}/`, strip: true } } : {},
      upstream: { url: 'http://upstream.example.com/base' },
      ...gw,
    },
  };
}

/** What the service stores for a sent document: the extension's info gains id and a 24-hex dbId. */
function expectStored(got: Json, sent: Json) {
  const { [GW]: gotGw, ...gotRest } = got;
  const { [GW]: sentGw, ...sentRest } = sent;
  expect(gotRest).toEqual(sentRest);
  expect(gotGw.info.dbId).toMatch(HEX24);
  expect(gotGw).toEqual({ ...sentGw, info: { ...sentGw.info, dbId: gotGw.info.dbId } });
}

const createOas = (body: unknown, headers?: Record<string, string>) => s.gw('POST', '/gw/apis/oas', body, headers);
const getOas = (id: string, query = '') => s.gw('GET', `/gw/apis/oas/${id}${query}`);
const getClassic = (id: string) => s.gw('GET', `/gw/apis/${id}`);

describe('OAS APIs: create, read, update, delete', () => {
  it('creates from a full document and reads it back intact; mode=public drops only x-gw-api-gateway', async () => {
    const id = uid('oas');
    const doc = oasDoc(id, 'org-any');
    const r = await createOas(doc);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ key: id, status: 'ok', action: 'added' });

    const full = await getOas(id);
    expect(full.status).toBe(200);
    expect(full.headers.get('etag')).toBe('"1"');
    expectStored(full.body, doc);

    const pub = await getOas(id, '?mode=public');
    expect(pub.status).toBe(200);
    const { [GW]: _gw, ...withoutGw } = doc;
    expect(pub.body).toEqual(withoutGw);
    expect(pub.body['x-gw-streaming']).toEqual(doc['x-gw-streaming']);
    expect(pub.body['x-vendor-note']).toEqual(doc['x-vendor-note']);

    const badMode = await getOas(id, '?mode=private');
    expect(badMode.status).toBe(400);
    expect(badMode.body.errors[0].path).toBe('query.mode');
  });

  it('creates from the bare x-gw-api-gateway object, building a minimal document around it', async () => {
    const id = uid('bare');
    const gw = { info: { id, name: 'Bare API', orgId: 'org-bare' }, server: { listenPath: { value: '/bare/' } }, upstream: { url: 'http://u' } };
    const r = await createOas(gw);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ key: id, status: 'ok', action: 'added' });
    const got = await getOas(id);
    expect(got.status).toBe(200);
    expect(got.body.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(got.body.info).toMatchObject({ title: 'Bare API' });
    expect(got.body.paths).toEqual({});
    expect(got.body[GW]).toEqual({ ...gw, info: { ...gw.info, dbId: expect.stringMatching(HEX24) } });
  });

  it('generates a 32-hex api_id when the definition has none', async () => {
    const doc = oasDoc('', 'org-gen');
    const r = await createOas(doc);
    expect(r.status).toBe(200);
    expect(r.body.key).toMatch(/^[0-9a-f]{32}$/);
    const got = await getOas(r.body.key);
    expect(got.status).toBe(200);
    expect(got.body[GW].info.id).toBe(r.body.key);
  });

  it('answers 409 for a taken api_id (OAS or classic) and keeps the first definition', async () => {
    const id = uid('dup');
    expect((await createOas(oasDoc(id, 'org-1'))).status).toBe(200);
    const second = oasDoc(id, 'org-2');
    second[GW].info.name = 'second';
    const r = await createOas(second);
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ status: 'error', message: 'that api_id is taken' });
    const classic = await s.gw('POST', '/gw/apis', { api_id: id, name: 'classic twin', org_id: 'org-3' });
    expect(classic.status).toBe(409);
    const got = await getOas(id);
    expect(got.body[GW].info).toMatchObject({ name: `API ${id}`, orgId: 'org-1' });
    expect((await getClassic(id)).body).toMatchObject({ name: `API ${id}`, org_id: 'org-1' });
  });

  it('answers 400 for a full document without x-gw-api-gateway, and for a body that is neither form', async () => {
    const id = uid('noext');
    const { [GW]: _gw, ...noExt } = oasDoc(id, 'org-x');
    const r = await createOas(noExt);
    expect(r.status).toBe(400);
    expect(r.body.status).toBe('error');
    expect(r.body.errors.map((e: Json) => e.path)).toContain(`body.${GW}`);
    const nullExt = await createOas({ ...noExt, [GW]: null });
    expect(nullExt.status).toBe(400);
    const empty = await createOas({});
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0].path).toBe(`body.${GW}`);
    const arrayBody = await createOas([1, 2]);
    expect(arrayBody.status).toBe(400);
    const malformed = await s.call('POST', '/gw/apis/oas', {
      body: '{"openapi":',
      headers: { 'x-gw-authorization': GW_SECRET, 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.status).toBe('error');
  });

  it('updates by replacing the document; ids, dbId and created_at are kept; the classic form follows', async () => {
    const id = uid('upd');
    const doc = oasDoc(id, 'org-upd');
    expect((await createOas(doc)).status).toBe(200);
    const dbId = (await getOas(id)).body[GW].info.dbId;

    const next = oasDoc(id, 'org-upd', { server: { listenPath: { value: '/moved/', strip: false } } });
    next[GW].info.name = 'Renamed';
    next.paths = { '/only': {} };
    delete next['x-vendor-note'];
    const r = await s.gw('PUT', `/gw/apis/oas/${id}`, next);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ key: id, status: 'ok', action: 'modified' });

    const got = await getOas(id);
    expect(got.headers.get('etag')).toBe('"2"');
    expectStored(got.body, next);
    expect(got.body[GW].info.dbId).toBe(dbId);
    expect(got.body['x-vendor-note']).toBeUndefined();
    const classic = await getClassic(id);
    expect(classic.body).toMatchObject({ id: dbId, api_id: id, name: 'Renamed', proxy: { listen_path: '/moved/', strip_listen_path: false } });
  });

  it('updates from the bare extension without an id (the path names the API)', async () => {
    const id = uid('updbare');
    expect((await createOas(oasDoc(id, 'org-ub'))).status).toBe(200);
    const bare = { info: { name: 'Bare update', orgId: 'org-ub' }, server: { listenPath: { value: `/${id}/` } }, upstream: { url: 'http://new' } };
    const r = await s.gw('PUT', `/gw/apis/oas/${id}`, bare);
    expect(r.status).toBe(200);
    const got = await getOas(id);
    expect(got.body[GW]).toMatchObject({ info: { id, name: 'Bare update' }, upstream: { url: 'http://new' } });
    expect((await getClassic(id)).body.proxy.target_url).toBe('http://new');
  });

  it('answers 400 when the body names another API than the path, and changes nothing', async () => {
    const id = uid('mism');
    const doc = oasDoc(id, 'org-m');
    expect((await createOas(doc)).status).toBe(200);
    const other = oasDoc(`${id}-other`, 'org-m');
    const r = await s.gw('PUT', `/gw/apis/oas/${id}`, other);
    expect(r.status).toBe(400);
    expect(r.body.status).toBe('error');
    expect(r.body.errors).toEqual([expect.objectContaining({ path: `body.${GW}.info.id` })]);
    const got = await getOas(id);
    expect(got.headers.get('etag')).toBe('"1"');
    expectStored(got.body, doc);
    expect((await getOas(`${id}-other`)).status).toBe(404);
  });

  it('lets concurrent updates without If-Match all succeed (last write wins), each counted as a version', async () => {
    const id = uid('lww');
    expect((await createOas(oasDoc(id, 'org-lww'))).status).toBe(200);
    const bodies = [1, 2, 3, 4].map((n) => oasDoc(id, 'org-lww', { upstream: { url: `http://u${n}` } }));
    const results = await Promise.all(bodies.map((b) => s.gw('PUT', `/gw/apis/oas/${id}`, b)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const got = await getOas(id);
    expect(got.headers.get('etag')).toBe('"5"');
    expect(['http://u1', 'http://u2', 'http://u3', 'http://u4']).toContain(got.body[GW].upstream.url);
  });

  it('deletes: reads answer 404 afterwards and the api_id can be used again', async () => {
    const id = uid('del');
    expect((await createOas(oasDoc(id, 'org-d'))).status).toBe(200);
    const r = await s.gw('DELETE', `/gw/apis/${id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ key: id, status: 'ok', action: 'deleted' });
    expect((await getOas(id)).status).toBe(404);
    expect((await getClassic(id)).status).toBe(404);
    expect((await s.gw('DELETE', `/gw/apis/${id}`)).status).toBe(404);
    const again = oasDoc(id, 'org-d2');
    expect((await createOas(again)).status).toBe(200);
    expectStored((await getOas(id)).body, again);
  });

  it('answers 404 in the gateway envelope for unknown ids on every route, and 400 for bad id characters', async () => {
    const id = uid('ghost');
    for (const r of [
      await getOas(id),
      await getOas(id, '?mode=public'),
      await getClassic(id),
      await s.gw('PUT', `/gw/apis/oas/${id}`, oasDoc(id, 'org-g')),
      await s.gw('DELETE', `/gw/apis/${id}`),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ status: 'error', message: expect.any(String) });
    }
    // The failed update must not have created it.
    expect((await getOas(id)).status).toBe(404);
    expect((await getClassic('bad%23id')).status).toBe(400);
    expect((await s.gw('DELETE', '/gw/apis/bad%20id')).status).toBe(400);
  });

  it('keeps an Idempotency-Key replay of a create from answering 409', async () => {
    const id = uid('idem');
    const doc = oasDoc(id, 'org-i');
    const first = await createOas(doc, { 'idempotency-key': `k-${id}` });
    const replay = await createOas(doc, { 'idempotency-key': `k-${id}` });
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('GET /gw/apis/{apiID}: the classic form of an OAS API', () => {
  it('answers is_oas true with the mapped fields', async () => {
    const id = uid('map');
    const doc = oasDoc(id, 'org-map', {
      info: { id, name: 'Mapped', orgId: 'org-map', expiration: '2030-01-01 00:00', state: { active: false, internal: true } },
      server: {
        listenPath: { value: '/mapped/', strip: true },
        customDomain: { enabled: true, name: 'api.example.com', certificates: ['cert-1'] },
        authentication: { enabled: true, stripAuthorizationData: true },
        gatewayTags: { enabled: true, tags: ['edge', 'eu'] },
        detailedTracing: { enabled: true },
        detailedActivityLogs: { enabled: true },
        clientCertificates: { enabled: true, allowlist: ['c1'] },
      },
      upstream: {
        url: 'http://mapped.upstream',
        rateLimit: { enabled: true, rate: 100, per: 60 },
        mutualTLS: { enabled: true, domainToCertificateMapping: [{ domain: 'u.example', certificate: 'cert-2' }] },
        certificatePinning: { enabled: true, domainToPublicKeysMapping: [{ domain: 'u.example', publicKeys: ['k1', 'k2'] }] },
      },
      middleware: {
        global: {
          cors: { enabled: true, allowedOrigins: ['https://a.example'], allowedMethods: ['GET'], maxAge: 30 },
          cache: { enabled: true, timeout: 60, cacheAllSafeRequests: true },
          contextVariables: { enabled: true },
          trafficLogs: { enabled: true },
        },
      },
    });
    expect((await createOas(doc)).status).toBe(200);
    const dbId = (await getOas(id)).body[GW].info.dbId;
    const r = await getClassic(id);
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toBe('"1"');
    expect(r.body).toMatchObject({
      is_oas: true,
      api_id: id,
      id: dbId,
      name: 'Mapped',
      org_id: 'org-map',
      expiration: '2030-01-01 00:00',
      active: false,
      internal: true,
      proxy: { listen_path: '/mapped/', strip_listen_path: true, target_url: 'http://mapped.upstream' },
      domain: 'api.example.com',
      domain_disabled: false,
      certificates: ['cert-1'],
      use_keyless: false,
      strip_auth_data: true,
      tags: ['edge', 'eu'],
      tags_disabled: false,
      detailed_tracing: true,
      enable_detailed_recording: true,
      use_mutual_tls_auth: true,
      client_certificates: ['c1'],
      global_rate_limit: { disabled: false, rate: 100, per: 60 },
      upstream_certificates_disabled: false,
      upstream_certificates: { 'u.example': 'cert-2' },
      certificate_pinning_disabled: false,
      pinned_public_keys: { 'u.example': 'k1,k2' },
      CORS: { enable: true, allowed_origins: ['https://a.example'], allowed_methods: ['GET'], max_age: 30 },
      cache_options: { enable_cache: true, cache_timeout: 60, cache_all_safe_requests: true },
      enable_context_vars: true,
      do_not_track: false,
    });
  });

  it('answers a classic API as it was created, with is_oas false and a 24-hex id; its OAS read is 404', async () => {
    const id = uid('classic');
    const def = {
      api_id: id,
      name: 'Classic one',
      org_id: 'org-classic',
      active: true,
      use_keyless: true,
      proxy: { listen_path: '/classic/', target_url: 'http://c.upstream', strip_listen_path: true, future_proxy_flag: 'kept' },
      version_data: { not_versioned: true, versions: { Default: { name: 'Default' } } },
      jwt_expires_at_validation_skew: 0,
      tags: null,
      future_top_level: { nested: [1, 2, 3] },
    };
    const r = await s.gw('POST', '/gw/apis', def);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ key: id, status: 'ok', action: 'added' });
    const got = await getClassic(id);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ ...def, id: expect.stringMatching(HEX24), is_oas: false });
    expect((await getOas(id)).status).toBe(404);

    const del = await s.gw('DELETE', `/gw/apis/${id}`);
    expect(del.body).toEqual({ key: id, status: 'ok', action: 'deleted' });
    expect((await getClassic(id)).status).toBe(404);
    expect((await s.gw('POST', '/gw/apis', def)).status).toBe(200);
  });

  it('generates the classic api_id when it is blank', async () => {
    const r = await s.gw('POST', '/gw/apis', { api_id: '', name: 'no id', org_id: 'org-c2', proxy: { listen_path: '/no-id/' } });
    expect(r.status).toBe(200);
    expect(r.body.key).toMatch(/^[0-9a-f]{32}$/);
    expect((await getClassic(r.body.key)).body).toMatchObject({ api_id: r.body.key, name: 'no id', is_oas: false });
  });
});

describe('validation', () => {
  it('refuses a classic definition with a negative JWT skew (400, path named, nothing stored)', async () => {
    const id = uid('skew');
    const r = await s.gw('POST', '/gw/apis', { api_id: id, name: 'skew', jwt_issued_at_validation_skew: -5 });
    expect(r.status).toBe(400);
    expect(r.body.status).toBe('error');
    expect(r.body.errors).toEqual([expect.objectContaining({ path: 'body.jwt_issued_at_validation_skew' })]);
    expect(r.body.message).toContain('body.jwt_issued_at_validation_skew');
    expect((await getClassic(id)).status).toBe(404);
  });

  it('refuses an OAS definition with a smoothing step of 0, in both body forms (400, path named)', async () => {
    const id = uid('smooth');
    const smoothing = { enabled: true, delay: 30, step: 0, threshold: 500, trigger: 0.8 };
    const full = await createOas(oasDoc(id, 'org-s', { upstream: { url: 'http://u', rateLimit: { enabled: true, rate: 10, per: 1, smoothing } } }));
    expect(full.status).toBe(400);
    expect(full.body.errors).toEqual([expect.objectContaining({ path: `body.${GW}.upstream.rateLimit.smoothing.step` })]);
    const bare = await createOas({ info: { id, orgId: 'org-s' }, upstream: { rateLimit: { smoothing } } });
    expect(bare.status).toBe(400);
    expect(bare.body.errors).toEqual([expect.objectContaining({ path: 'body.upstream.rateLimit.smoothing.step' })]);
    expect((await getOas(id)).status).toBe(404);

    // The same on update: refused, and the stored definition is untouched.
    expect((await createOas(oasDoc(id, 'org-s'))).status).toBe(200);
    const listenPath = { value: `/${id}/` };
    const upd = await s.gw('PUT', `/gw/apis/oas/${id}`, { info: { id }, server: { listenPath }, upstream: { rateLimit: { smoothing } } });
    expect(upd.status).toBe(400);
    expect(upd.body.errors[0].path).toBe('body.upstream.rateLimit.smoothing.step');
    expect((await getOas(id)).headers.get('etag')).toBe('"1"');

    const okSmoothing = { ...smoothing, step: 1 };
    const fine = await s.gw('PUT', `/gw/apis/oas/${id}`, {
      info: { id },
      server: { listenPath },
      upstream: { rateLimit: { enabled: true, rate: 5, per: 1, smoothing: okSmoothing } },
    });
    expect(fine.status).toBe(200);
    expect((await getOas(id)).body[GW].upstream.rateLimit.smoothing).toEqual(okSmoothing);
  });

  it('refuses wrong types with the path (classic and OAS)', async () => {
    const a = await s.gw('POST', '/gw/apis', { api_id: uid('t'), proxy: { listen_path: 5 } });
    expect(a.status).toBe(400);
    expect(a.body.errors[0].path).toBe('body.proxy.listen_path');
    const b = await createOas(oasDoc(uid('t'), 'org-t', { server: { listenPath: { strip: 'yes' } } }));
    expect(b.status).toBe(400);
    expect(b.body.errors[0].path).toBe(`body.${GW}.server.listenPath.strip`);
  });

  it('keeps unknown extra members of the classic definition and of x-gw-api-gateway, at every level', async () => {
    const id = uid('extra');
    const doc = oasDoc(id, 'org-extra', {
      futureTop: { a: 1 },
      server: { listenPath: { value: '/x/', strip: true, futureFlag: true }, futureServer: ['x'] },
      upstream: { url: 'http://u', rateLimit: { enabled: true, rate: 1, per: 1, smoothing: { step: 2, futureSmoothing: 'y' } } },
    });
    expect((await createOas(doc)).status).toBe(200);
    expectStored((await getOas(id)).body, doc);

    const cid = uid('cextra');
    const def = {
      api_id: cid,
      name: 'c',
      proxy: { listen_path: `/${cid}/` },
      CORS: { enable: true, future_cors: 1 },
      auth: { signature: { future_sig: 'z' } },
      brand_new: { deep: { er: true } },
    };
    expect((await s.gw('POST', '/gw/apis', def)).status).toBe(200);
    expect((await getClassic(cid)).body).toMatchObject(def);
  });
});

describe('organisations of gateway writes', () => {
  it("lets a gateway write name any existing organisation, which that organisation's dashboard users then list", async () => {
    const tenant = await s.tenant();
    const orgId = tenant.orgId;
    const id = uid('any-org');
    expect((await createOas(oasDoc(id, orgId))).status).toBe(200);
    expect((await getClassic(id)).body.org_id).toBe(orgId);
    const other = await s.tenant();
    const mine = await s.dash(tenant.key, 'GET', '/api/apis');
    expect(mine.status).toBe(200);
    expect(mine.body.apis.map((a: Json) => a.api_definition.api_id)).toEqual([id]);
    const theirs = await s.dash(other.key, 'GET', '/api/apis');
    expect(theirs.body).toMatchObject({ apis: [], pages: 0 });
  });

  it('moves an API between organisations on update (listings and page counts follow)', async () => {
    const a = await s.tenant();
    const b = await s.tenant();
    const id = uid('mover');
    expect((await createOas(oasDoc(id, a.orgId))).status).toBe(200);
    expect((await s.dash(a.key, 'GET', '/api/apis')).body.pages).toBe(1);
    expect((await s.gw('PUT', `/gw/apis/oas/${id}`, oasDoc(id, b.orgId))).status).toBe(200);
    const la = await s.dash(a.key, 'GET', '/api/apis');
    const lb = await s.dash(b.key, 'GET', '/api/apis');
    expect(la.body).toMatchObject({ apis: [], pages: 0 });
    expect(lb.body.pages).toBe(1);
    expect(lb.body.apis.map((x: Json) => x.api_definition.api_id)).toEqual([id]);
  });
});

describe('large definitions', () => {
  type Alphabet = 'hex' | 'base64' | 'ascii';
  /** Random JSON-safe text; 'ascii' (93 printable characters) is the least compressible. */
  function randomText(n: number, alphabet: Alphabet): string {
    if (alphabet !== 'ascii') return randomBytes(n).toString(alphabet).slice(0, n);
    const chars = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).filter((c) => c !== '"' && c !== '\\');
    return Array.from(randomBytes(n), (b) => chars[b % chars.length]).join('');
  }

  /** An OpenAPI document of about `bytes` of JSON, mostly random text (compresses poorly). */
  function bigDoc(id: string, orgId: string, bytes: number, alphabet: Alphabet = 'hex'): Json {
    const doc = oasDoc(id, orgId);
    const paths: Json = {};
    let size = JSON.stringify(doc).length;
    for (let i = 0; size < bytes; i++) {
      const want = Math.min(8_000, bytes - size);
      const text = randomText(Math.max(1, want - 120), alphabet);
      const op = { get: { operationId: `op${i}`, description: text, responses: { '200': { description: 'ok' } } } };
      paths[`/r/${i}`] = op;
      size += JSON.stringify(op).length + `"/r/${i}":,`.length + 4;
    }
    doc.paths = paths;
    return doc;
  }

  it('round-trips a 4 MB OpenAPI document intact, lists it, and shrinks and deletes it cleanly', async () => {
    const t = await s.tenant();
    const id = uid('big');
    const doc = bigDoc(id, t.orgId, 4 * 1024 * 1024);
    const size = Buffer.byteLength(JSON.stringify(doc));
    expect(size).toBeGreaterThan(4 * 1000 * 1000);
    expect(size).toBeLessThan(5 * 1024 * 1024);

    const r = await createOas(doc);
    expect(r.status).toBe(200);
    const got = await getOas(id);
    expect(got.status).toBe(200);
    expectStored(got.body, doc);
    const pub = await getOas(id, '?mode=public');
    expect(pub.body.paths).toEqual(doc.paths);
    expect((await getClassic(id)).body).toMatchObject({ api_id: id, is_oas: true, org_id: t.orgId });

    const list = await s.dash(t.key, 'GET', '/api/apis');
    expect(list.status).toBe(200);
    expect(list.body.apis).toHaveLength(1);
    expect(list.body.apis[0].oas.paths).toEqual(doc.paths);

    // Replacing it with a small document must leave no stale parts behind.
    const small = oasDoc(id, t.orgId);
    expect((await s.gw('PUT', `/gw/apis/oas/${id}`, small)).status).toBe(200);
    expectStored((await getOas(id)).body, small);

    // Large again, then deleted: a new API under the same id must read cleanly.
    expect((await s.gw('PUT', `/gw/apis/oas/${id}`, doc)).status).toBe(200);
    expectStored((await getOas(id)).body, doc);
    expect((await s.gw('DELETE', `/gw/apis/${id}`)).status).toBe(200);
    expect((await createOas(small)).status).toBe(200);
    expectStored((await getOas(id)).body, small);
  });

  it('stores a document just under the 5 MB body limit; near-random text may get a clear 413, never a 5xx', async () => {
    // Hex text still compresses 2:1, as real documents do (better); it must be stored.
    for (const [alphabet, allowed] of [
      ['hex', [200]],
      ['base64', [200, 413]],
      ['ascii', [200, 413]],
    ] as const) {
      const id = uid(`near-${alphabet}`);
      const doc = bigDoc(id, 'org-near', 5 * 1024 * 1024 - 2_000, alphabet);
      expect(Buffer.byteLength(JSON.stringify(doc))).toBeLessThanOrEqual(5 * 1024 * 1024);
      const r = await createOas(doc);
      expect(allowed, `${alphabet}: ${r.status} ${JSON.stringify(r.body)}`).toContain(r.status);
      if (r.status === 200) expectStored((await getOas(id)).body, doc);
      else {
        expect(r.body).toMatchObject({ status: 'error', message: expect.any(String) });
        expect((await getOas(id)).status).toBe(404);
      }
    }
  });

  it('answers 413 in the gateway envelope for a body over 5 MB', async () => {
    const id = uid('over');
    const doc = bigDoc(id, 'org-over', 5 * 1024 * 1024 + 10_000);
    const r = await createOas(doc);
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ status: 'error' });
    expect((await getOas(id)).status).toBe(404);
  });
});
