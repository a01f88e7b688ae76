/**
 * API versions (contract §8) on import, on POST /gw/apis/oas and on PUT /gw/apis/oas/{apiID},
 * and the streams patch, through the local stage.
 */
import { describe, expect, it } from 'vitest';
import { oasDoc } from '../support/fixtures';
import { useStage, useTenants } from '../support/file-stage';
import { petstoreJson } from '../unit/import-fixtures';

type Any = Record<string, any>;
const s = useStage();
const [t] = useTenants(s, 1);

const IMPORT = '/api/apis/oas/import';
const STREAMS = 'application/vnd.gw.streams.oas';

let paths = 0;
/** Imports with a listen path of its own: listen paths are unique per domain. */
async function importApi(key: string, query = ''): Promise<{ status: number; id: string; api_id: string; body: Any }> {
  const q = `${query}${query ? '&' : '?'}listenPath=/versions-${++paths}/`;
  const r = await s.dash(key, 'POST', `${IMPORT}${q}`, petstoreJson, { 'content-type': 'application/json' });
  return { status: r.status, id: r.body.Meta, api_id: r.body.ID, body: r.body };
}

async function getOas(apiId: string) {
  const r = await s.gw('GET', `/gw/apis/oas/${apiId}`);
  expect(r.status).toBe(200);
  return { doc: r.body as Any, etag: r.headers.get('etag') };
}

const versioningOf = async (apiId: string) => (await getOas(apiId)).doc['x-gw-api-gateway'].info.versioning;

async function apiCount(key: string): Promise<number> {
  return (await s.dash(key, 'GET', '/api/apis?p=-1')).body.apis.length;
}

describe('versions on import', () => {
  it('links a child with set_default: base versioning enabled, {id, name}, default, key and location', async () => {
    const base = await importApi(t.key);
    expect(base.status).toBe(200);
    const child = await importApi(t.key, `?base_api_id=${base.api_id}&new_version_name=v2&base_api_version_name=v1&set_default=true`);
    expect(child.status).toBe(200);
    expect(child.body).toMatchObject({ Status: 'OK', Message: 'API created' });
    expect(await versioningOf(base.api_id)).toEqual({
      enabled: true,
      name: 'v1',
      versions: [{ id: child.api_id, name: 'v2' }],
      default: 'v2',
      key: 'x-api-version',
      location: 'header',
    });
    // The classic forms: the child names its base in a header, the base carries the versions.
    const childClassic = await s.gw('GET', `/gw/apis/${child.api_id}`);
    expect(childClassic.status).toBe(200);
    expect(childClassic.headers.get('x-gw-base-api-id')).toBe(base.api_id);
    const baseClassic = await s.gw('GET', `/gw/apis/${base.api_id}`);
    expect(baseClassic.headers.get('x-gw-base-api-id')).toBeNull();
    expect(baseClassic.body.definition).toMatchObject({ enabled: true, key: 'x-api-version', location: 'header' });

    // A second version without set_default keeps v2 as the default; the base is found by its database id too.
    const third = await importApi(t.key, `?base_api_id=${base.id}&new_version_name=v3`);
    expect(third.status).toBe(200);
    const v = await versioningOf(base.api_id);
    expect(v.versions).toEqual([
      { id: child.api_id, name: 'v2' },
      { id: third.api_id, name: 'v3' },
    ]);
    expect(v.default).toBe('v2');
    expect(v.name).toBe('v1');
  });

  it('422 for an unknown base, a base of another organisation or a missing new_version_name; nothing stored', async () => {
    const base = await importApi(t.key);
    const before = await getOas(base.api_id);
    const count = await apiCount(t.key);
    const unknown = await importApi(t.key, '?base_api_id=no-such-api&new_version_name=v2');
    expect(unknown.status).toBe(422);
    expect(unknown.body.Message).toContain('no-such-api');
    const missing = await importApi(t.key, `?base_api_id=${base.api_id}`);
    expect(missing.status).toBe(422);
    expect(missing.body.Message).toContain('new_version_name');
    const other = await s.tenant();
    const foreign = await importApi(other.key, `?base_api_id=${base.api_id}&new_version_name=v2`);
    expect(foreign.status).toBe(422);
    expect(await apiCount(t.key)).toBe(count);
    expect(await apiCount(other.key)).toBe(0);
    expect(await getOas(base.api_id)).toEqual(before);
  });
});

describe("a template's version list names only the caller's APIs", () => {
  /** Imports through a template of `key`'s organisation whose x-gw-api-gateway lists `versions`. */
  async function importWithVersions(key: string, versions: Any[]) {
    const template = await s.dash(key, 'POST', '/api/assets', {
      name: 'versions',
      data: { 'x-gw-api-gateway': { info: { versioning: { enabled: true, name: 'v1', default: 'v2', versions } } } },
    });
    expect(template.status).toBe(200);
    return importApi(key, `?templateID=${template.body.Meta}`);
  }

  it("an API of another organisation is 422 like an unknown one; nothing stored; the caller's own API is kept", async () => {
    const other = await s.tenant();
    const theirs = await importApi(other.key);
    const count = await apiCount(t.key);
    const foreign = await importWithVersions(t.key, [{ id: theirs.api_id }]);
    expect(foreign.status).toBe(422);
    expect(foreign.body).toMatchObject({ Status: 'Error', Message: `unknown API: ${theirs.api_id}` });
    const unknown = await importWithVersions(t.key, [{ id: 'no-such-api', name: 'v2' }]);
    expect(JSON.stringify(unknown.body).replaceAll('no-such-api', '<id>')).toBe(JSON.stringify(foreign.body).replaceAll(theirs.api_id, '<id>'));
    expect(await apiCount(t.key)).toBe(count);
    const mine = await importApi(t.key);
    const ok = await importWithVersions(t.key, [{ id: mine.api_id, name: 'v2' }]);
    expect(ok.status).toBe(200);
    expect((await versioningOf(ok.api_id)).versions).toEqual([{ id: mine.api_id, name: 'v2' }]);
  });
});

describe('versions on POST and PUT /gw/apis/oas', () => {
  const gwDoc = (id: string, orgId: string, title = id) => oasDoc(id, orgId, { title });

  it('creates a child version in one transaction; a failed child write leaves the base unchanged', async () => {
    expect((await s.gw('POST', '/gw/apis/oas', gwDoc('gw-base', t.orgId))).status).toBe(200);
    const created = await s.gw('POST', '/gw/apis/oas?base_api_id=gw-base&new_version_name=beta', gwDoc('gw-child', t.orgId));
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ key: 'gw-child', status: 'ok', action: 'added' });
    expect((await s.gw('GET', '/gw/apis/gw-child')).headers.get('x-gw-base-api-id')).toBe('gw-base');
    const before = await getOas('gw-base');
    expect(before.doc['x-gw-api-gateway'].info.versioning).toMatchObject({
      enabled: true,
      versions: [{ id: 'gw-child', name: 'beta' }],
      default: 'Default',
      name: 'Default',
    });

    // The child id is taken: the transaction fails as a whole, so the base gains no version.
    const dup = await s.gw('POST', '/gw/apis/oas?base_api_id=gw-base&new_version_name=gamma&set_default=true', gwDoc('gw-child', t.orgId));
    expect(dup.status).toBe(409);
    expect(await getOas('gw-base')).toEqual(before);

    expect((await s.gw('POST', '/gw/apis/oas?base_api_id=missing-base&new_version_name=x', gwDoc('gw-orphan', t.orgId))).status).toBe(422);
    expect((await s.gw('POST', '/gw/apis/oas?base_api_id=gw-base', gwDoc('gw-orphan', t.orgId))).status).toBe(422);
    // The base must be in the child's organisation.
    expect((await s.gw('POST', '/gw/apis/oas?base_api_id=gw-base&new_version_name=x', gwDoc('gw-orphan', 'elsewhere'))).status).toBe(422);
    expect((await s.gw('GET', '/gw/apis/oas/gw-orphan')).status).toBe(404);
    expect(await getOas('gw-base')).toEqual(before);
  });

  it('PUT links an existing API as a version of a base; moving to another base unlinks it from the old one', async () => {
    for (const id of ['put-base', 'put-base-2', 'put-child']) expect((await s.gw('POST', '/gw/apis/oas', gwDoc(id, t.orgId))).status).toBe(200);
    expect((await s.gw('GET', '/gw/apis/put-child')).headers.get('x-gw-base-api-id')).toBeNull();
    const put = await s.gw('PUT', '/gw/apis/oas/put-child?base_api_id=put-base&new_version_name=v2&set_default=1', gwDoc('put-child', t.orgId, 'renamed'));
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ key: 'put-child', status: 'ok', action: 'modified' });
    expect((await s.gw('GET', '/gw/apis/put-child')).headers.get('x-gw-base-api-id')).toBe('put-base');
    expect((await getOas('put-child')).doc.info.title).toBe('renamed');
    expect(await versioningOf('put-base')).toMatchObject({ enabled: true, versions: [{ id: 'put-child', name: 'v2' }], default: 'v2' });

    // A later PUT without version parameters keeps the link.
    expect((await s.gw('PUT', '/gw/apis/oas/put-child', gwDoc('put-child', t.orgId))).status).toBe(200);
    expect((await s.gw('GET', '/gw/apis/put-child')).headers.get('x-gw-base-api-id')).toBe('put-base');

    expect((await s.gw('PUT', '/gw/apis/oas/put-child?base_api_id=put-base-2&new_version_name=v9', gwDoc('put-child', t.orgId))).status).toBe(200);
    expect((await s.gw('GET', '/gw/apis/put-child')).headers.get('x-gw-base-api-id')).toBe('put-base-2');
    expect(await versioningOf('put-base-2')).toMatchObject({ versions: [{ id: 'put-child', name: 'v9' }] });
    const old = await versioningOf('put-base');
    expect(old.versions).toEqual([]);
    expect(old.default).toBe('Default');

    expect((await s.gw('PUT', '/gw/apis/oas/put-child?base_api_id=put-child&new_version_name=self', gwDoc('put-child', t.orgId))).status).toBe(422);
    expect((await s.gw('PUT', '/gw/apis/oas/put-child?base_api_id=nope&new_version_name=v', gwDoc('put-child', t.orgId))).status).toBe(422);
    expect((await s.gw('PUT', '/gw/apis/oas/put-child?base_api_id=put-base', gwDoc('put-child', t.orgId))).status).toBe(422);
  });
});

describe('streams PATCH /api/apis/streams/{apiID}', () => {
  const streamsBody = (apiId: string, streams: Any = { in: { input: { http_server: { path: '/in' } } } }) => ({
    openapi: '3.0.3',
    info: { title: 'Streams', version: '1.0.0' },
    paths: {},
    'x-gw-api-gateway': {
      info: { id: apiId, name: 'Streams API', state: { active: true, internal: false } },
      server: { listenPath: { value: `/streams-${apiId}/`, strip: true } },
    },
    'x-gw-streaming': { streams },
  });
  async function patch(key: string, apiId: string, body: unknown, contentType: string | null = STREAMS, query = '') {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    if (contentType !== null) {
      return s.call('PATCH', `/api/apis/streams/${apiId}${query}`, {
        body: text,
        headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
      });
    }
    // fetch labels a string body text/plain; bytes go without any Content-Type.
    const res = await fetch(`${s.url}/api/apis/streams/${apiId}${query}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${key}` },
      body: new TextEncoder().encode(text),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Any };
  }

  it('patches the API: GET shows the new x-gw-streaming, query flags applied, ids and organisation kept', async () => {
    const api = await importApi(t.key);
    const streams = { orders: { input: { kafka: { topics: ['orders'] } }, output: { http_server: { path: '/orders' } } } };
    const r = await patch(t.key, api.api_id, streamsBody(api.api_id, streams), STREAMS, '?listenPath=/orders/&allowList=true');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ Status: 'OK', Message: 'API updated', Meta: null });
    const { doc } = await getOas(api.api_id);
    expect(doc['x-gw-streaming']).toEqual({ streams });
    expect(doc.info.title).toBe('Streams');
    expect(doc['x-gw-api-gateway'].info).toMatchObject({ id: api.api_id, dbId: api.id, orgId: t.orgId, name: 'Streams API' });
    expect(doc['x-gw-api-gateway'].server.listenPath).toEqual({ value: '/orders/', strip: true });
    // By database id too, and the body may leave info.id out.
    const again = streamsBody('', { other: {} });
    delete (again['x-gw-api-gateway'].info as Any).id;
    expect((await patch(t.key, api.id, again)).status).toBe(200);
    expect((await getOas(api.api_id)).doc['x-gw-streaming']).toEqual({ streams: { other: {} } });
  });

  it("policies the definition hands out (OIDC, JWT) must be the caller's: 422 for another organisation's", async () => {
    const api = await importApi(t.key);
    const other = await s.tenant();
    const theirs = `pol-theirs-${Date.now()}`;
    const mine = `pol-mine-${Date.now()}`;
    expect((await s.gw('POST', '/gw/policies', { id: theirs, org_id: other.orgId })).status).toBe(200);
    expect((await s.gw('POST', '/gw/policies', { id: mine, org_id: t.orgId })).status).toBe(200);
    const withPolicy = (policyId: string) => {
      const body = streamsBody(api.api_id);
      (body['x-gw-api-gateway'].server as Any).authentication = {
        oidc: { enabled: true, providers: [{ issuer: 'https://idp.example', clientToPolicyMapping: [{ clientId: 'app', policyId }] }] },
      };
      return body;
    };
    const before = await getOas(api.api_id);
    const refused = await patch(t.key, api.api_id, withPolicy(theirs));
    expect(refused.status).toBe(422);
    expect(refused.body.Message).toBe(`unknown policy: ${theirs}`);
    expect(await getOas(api.api_id)).toEqual(before);
    expect((await patch(t.key, api.api_id, withPolicy(mine))).status).toBe(200);
    expect((await s.gw('GET', `/gw/apis/${api.api_id}`)).body.openid_options.providers[0].client_ids).toEqual({ app: mine });
  });

  it('takes the +json structured-syntax form of the media type too, as a generated client sends it', async () => {
    const api = await importApi(t.key);
    const body = { ...streamsBody(api.api_id), info: { title: 'Renamed by +json', version: '1' } };
    const r = await patch(t.key, api.api_id, body, 'application/vnd.gw.streams.oas+json; charset=utf-8');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await getOas(api.api_id)).doc.info.title).toBe('Renamed by +json');
  });

  it('415 for any other media type, JSON included, or none', async () => {
    const api = await importApi(t.key);
    const before = await getOas(api.api_id);
    // null: no Content-Type header at all.
    for (const type of ['application/json', 'application/vnd.gw.streams.oas+jsonx', 'text/plain', null]) {
      const r = await patch(t.key, api.api_id, streamsBody(api.api_id), type);
      expect(r.status, String(type)).toBe(415);
      expect(r.body).toMatchObject({ Status: 'Error', Meta: null });
    }
    expect(await getOas(api.api_id)).toEqual(before);
  });

  it('400 without x-gw-api-gateway, without x-gw-streaming.streams, or naming another API', async () => {
    const api = await importApi(t.key);
    const before = await getOas(api.api_id);
    const { 'x-gw-api-gateway': _gw, ...noGateway } = streamsBody(api.api_id);
    const r1 = await patch(t.key, api.api_id, noGateway);
    expect(r1.status).toBe(400);
    expect(r1.body.Meta.errors.map((e: Any) => e.path)).toContain('body.x-gw-api-gateway');
    const noStreams = { ...streamsBody(api.api_id), 'x-gw-streaming': {} };
    const r2 = await patch(t.key, api.api_id, noStreams);
    expect(r2.status).toBe(400);
    expect(r2.body.Meta.errors.map((e: Any) => e.path)).toContain('body.x-gw-streaming.streams');
    const { 'x-gw-streaming': _st, ...noStreaming } = streamsBody(api.api_id);
    expect((await patch(t.key, api.api_id, noStreaming)).status).toBe(400);
    expect((await patch(t.key, api.api_id, '{"openapi":')).status).toBe(400);
    expect((await patch(t.key, api.api_id, streamsBody('another-api'))).status).toBe(400);
    expect(await getOas(api.api_id)).toEqual(before);
  });

  it('404 for an unknown API and for an API of another organisation', async () => {
    expect((await patch(t.key, 'no-such-api', streamsBody('no-such-api'))).status).toBe(404);
    const api = await importApi(t.key);
    const other = await s.tenant();
    const r = await patch(other.key, api.api_id, streamsBody(api.api_id));
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ Status: 'Error', Meta: null });
    expect((await getOas(api.api_id)).doc['x-gw-streaming']).toBeUndefined();
  });
});
