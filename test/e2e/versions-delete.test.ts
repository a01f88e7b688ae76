/**
 * DELETE /gw/apis/{apiID} keeps version links whole (contract §8): a deleted version leaves its
 * base's version list in the same transaction; a base that still has versions is refused (409).
 */
import { describe, expect, it } from 'vitest';
import { oasDoc } from '../support/fixtures';
import { useStage, useTenants } from '../support/file-stage';

type Any = Record<string, any>;
const s = useStage();
const [t] = useTenants(s, 1);

const gwDoc = (id: string, orgId: string, versioning?: Any) => oasDoc(id, orgId, { info: versioning ? { versioning } : {} });

async function create(id: string, query = '') {
  const r = await s.gw('POST', `/gw/apis/oas${query}`, gwDoc(id, t.orgId));
  expect(r.status, `create ${id}`).toBe(200);
}

async function getOas(apiId: string) {
  const r = await s.gw('GET', `/gw/apis/oas/${apiId}`);
  expect(r.status).toBe(200);
  return { doc: r.body as Any, etag: r.headers.get('etag') };
}

const versioningOf = async (apiId: string) => (await getOas(apiId)).doc['x-gw-api-gateway'].info.versioning;
const apiCount = async () => (await s.dash(t.key, 'GET', '/api/apis?p=-1')).body.apis.length as number;
const del = (apiId: string, headers?: Record<string, string>) => s.gw('DELETE', `/gw/apis/${apiId}`, undefined, headers);

describe('DELETE /gw/apis/{apiID} and versions', () => {
  it('deleting a version removes it from its base in the same write; the default falls back to the base', async () => {
    await create('d-base');
    await create('d-v2', '?base_api_id=d-base&new_version_name=v2&base_api_version_name=v1&set_default=true');
    await create('d-v3', '?base_api_id=d-base&new_version_name=v3');
    const before = await getOas('d-base');
    expect(before.doc['x-gw-api-gateway'].info.versioning).toMatchObject({
      versions: [
        { id: 'd-v2', name: 'v2' },
        { id: 'd-v3', name: 'v3' },
      ],
      default: 'v2',
    });
    const count = await apiCount();

    // A stale If-Match on the version changes nothing, base included.
    const child = await getOas('d-v2');
    const stale = await del('d-v2', { 'if-match': '"999"' });
    expect(stale.status).toBe(412);
    expect(await getOas('d-base')).toEqual(before);

    const r = await del('d-v2', { 'if-match': child.etag! });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ key: 'd-v2', status: 'ok', action: 'deleted' });
    expect((await s.gw('GET', '/gw/apis/oas/d-v2')).status).toBe(404);
    expect(await apiCount()).toBe(count - 1);

    const after = await getOas('d-base');
    expect(after.etag).not.toBe(before.etag);
    expect(after.doc['x-gw-api-gateway'].info.versioning).toMatchObject({
      enabled: true,
      name: 'v1',
      versions: [{ id: 'd-v3', name: 'v3' }],
      default: 'v1',
    });
    // The classic form of the base follows.
    const classic = await s.gw('GET', '/gw/apis/d-base');
    expect(classic.status).toBe(200);
    expect(classic.body.definition.versions).toEqual({ v3: 'd-v3' });
    expect(classic.body.definition.default).toBe('v1');
    // The remaining version still names its base.
    expect((await s.gw('GET', '/gw/apis/d-v3')).headers.get('x-gw-base-api-id')).toBe('d-base');
  });

  it('409 for a base that still has versions, naming them; nothing changes', async () => {
    await create('b-base');
    await create('b-v2', '?base_api_id=b-base&new_version_name=v2');
    await create('b-v3', '?base_api_id=b-base&new_version_name=v3');
    const before = await getOas('b-base');
    const count = await apiCount();

    for (const headers of [undefined, { 'if-match': before.etag! }]) {
      const r = await del('b-base', headers);
      expect(r.status).toBe(409);
      expect(r.body.status).toBe('error');
      expect(r.body.message).toContain('b-v2');
      expect(r.body.message).toContain('b-v3');
      expect(r.body.message).toContain('delete or unlink its versions first');
    }
    expect(await getOas('b-base')).toEqual(before);
    expect(await apiCount()).toBe(count);
    for (const id of ['b-v2', 'b-v3']) expect((await s.gw('GET', `/gw/apis/${id}`)).headers.get('x-gw-base-api-id')).toBe('b-base');

    // Once its versions are gone the base deletes.
    expect((await del('b-v2')).status).toBe(200);
    expect((await del('b-base')).status).toBe(409);
    expect((await del('b-v3')).status).toBe(200);
    expect(await versioningOf('b-base')).toMatchObject({ versions: [], default: 'Default' });
    const r = await del('b-base');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ key: 'b-base', status: 'ok', action: 'deleted' });
    expect((await s.gw('GET', '/gw/apis/oas/b-base')).status).toBe(404);
    expect(await apiCount()).toBe(count - 3);
    expect((await del('b-base')).status).toBe(404);
  });

  it('a version entry naming no existing API does not block deleting the base', async () => {
    const versioning = { enabled: true, name: 'v1', default: 'v1', versions: [{ id: 'ghost-api', name: 'g' }] };
    expect((await s.gw('POST', '/gw/apis/oas', gwDoc('ghost-base', t.orgId, versioning))).status).toBe(200);
    expect(await versioningOf('ghost-base')).toMatchObject({ versions: [{ id: 'ghost-api', name: 'g' }] });
    expect((await del('ghost-base')).status).toBe(200);
    expect((await s.gw('GET', '/gw/apis/oas/ghost-base')).status).toBe(404);
  });

  it('a version deleted while another is linked to the same base: both land, neither overwrites the other', async () => {
    await create('c-base');
    await create('c-old', '?base_api_id=c-base&new_version_name=old');
    const [removed, added] = await Promise.all([del('c-old'), s.gw('POST', '/gw/apis/oas?base_api_id=c-base&new_version_name=new', gwDoc('c-new', t.orgId))]);
    expect(removed.status).toBe(200);
    expect(added.status).toBe(200);
    expect((await versioningOf('c-base')).versions).toEqual([{ id: 'c-new', name: 'new' }]);
  });
});

describe('a replacement of the base keeps its version list', () => {
  it('PUT and the streams PATCH cannot drop a linked version, so the base still refuses deletion', async () => {
    const base = `keep-base-${Date.now()}`;
    const childId = `keep-child-${Date.now()}`;
    await create(base);
    await create(childId, `?base_api_id=${base}&new_version_name=v2&base_api_version_name=v1`);
    const linked = (await versioningOf(base)).versions;
    expect(linked).toEqual([{ id: childId, name: 'v2' }]);

    const put = await s.gw('PUT', `/gw/apis/oas/${base}`, gwDoc(base, t.orgId, { enabled: true, name: 'v1', versions: [] }));
    expect(put.status).toBe(200);
    expect((await versioningOf(base)).versions).toEqual(linked);
    const forged = await s.gw('PUT', `/gw/apis/oas/${base}`, gwDoc(base, t.orgId, { enabled: true, name: 'v1', versions: [{ id: 'not-linked', name: 'x' }] }));
    expect(forged.status).toBe(200);
    expect((await versioningOf(base)).versions).toEqual(linked);

    const streams = { ...gwDoc(base, t.orgId, { enabled: true, versions: [] }), 'x-gw-streaming': { streams: { s1: {} } } };
    const patch = await s.call('PATCH', `/api/apis/streams/${base}`, {
      body: JSON.stringify(streams),
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/vnd.gw.streams.oas' },
    });
    expect(patch.status).toBe(200);
    expect((await versioningOf(base)).versions).toEqual(linked);
    expect((await s.gw('DELETE', `/gw/apis/${base}`)).status).toBe(409);
  });
});
