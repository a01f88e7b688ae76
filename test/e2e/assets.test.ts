/** Assets (OAS templates) through the local stage: create, read by either id, list, replace, delete. */
import { describe, expect, it } from 'vitest';
import { useStage } from '../support/file-stage';

type Any = Record<string, any>;
const s = useStage();

const data = (title: string): Any => ({
  openapi: '3.0.3',
  info: { title, version: '1.0.0' },
  paths: { '/anything': { post: { operationId: 'anythingpost', responses: { '200': { description: 'ok' } } } } },
  'x-gw-api-gateway': { middleware: { global: { cache: { enabled: true, cacheAllSafeRequests: true, timeout: 5 } } } },
});

describe('assets', () => {
  it('creates with a custom id; reads it back by _id and by id, with an ETag', async () => {
    const t = await s.tenant();
    const r = await s.dash(t.key, 'POST', '/api/assets', {
      id: 'my-template',
      name: 'My template',
      description: 'first',
      kind: 'oas-template',
      data: data('T1'),
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ Status: 'OK', Message: 'Asset created', Meta: expect.stringMatching(/^[0-9a-f]{24}$/), ID: 'my-template' });
    const expected = {
      _id: r.body.Meta,
      id: 'my-template',
      name: 'My template',
      description: 'first',
      kind: 'oas-template',
      data: data('T1'),
      org_id: t.orgId,
      last_updated: expect.any(String),
    };
    const byDb = await s.dash(t.key, 'GET', `/api/assets/${r.body.Meta}`);
    expect(byDb.status).toBe(200);
    expect(byDb.body).toEqual(expected);
    expect(byDb.headers.get('etag')).toBe('"1"');
    const byId = await s.dash(t.key, 'GET', '/api/assets/my-template');
    expect(byId.body).toEqual(expected);
  });

  it('defaults kind to oas-template and generates only _id without a custom id', async () => {
    const t = await s.tenant();
    const r = await s.dash(t.key, 'POST', '/api/assets', { data: data('T2') });
    expect(r.status).toBe(200);
    expect(r.body.ID).toBe(r.body.Meta);
    const got = await s.dash(t.key, 'GET', `/api/assets/${r.body.Meta}`);
    expect(got.body).toMatchObject({ kind: 'oas-template', name: '', description: '' });
    expect(got.body.id).toBeUndefined();
  });

  it('409 for a custom id taken in the organisation; the same id is free in another one', async () => {
    const t = await s.tenant();
    expect((await s.dash(t.key, 'POST', '/api/assets', { id: 'dup', data: data('a') })).status).toBe(200);
    const dup = await s.dash(t.key, 'POST', '/api/assets', { id: 'dup', data: data('b') });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ Status: 'Error', Meta: null });
    expect((await s.dash(t.key, 'GET', '/api/assets/dup')).body.data.info.title).toBe('a');
    expect((await s.dash(t.key, 'GET', '/api/assets')).body.assets).toHaveLength(1);
    const other = await s.tenant();
    expect((await s.dash(other.key, 'POST', '/api/assets', { id: 'dup', data: data('c') })).status).toBe(200);
  });

  it('422 for any kind but oas-template; 400 for missing data, bad ids or a malformed extension', async () => {
    const t = await s.tenant();
    const kind = await s.dash(t.key, 'POST', '/api/assets', { kind: 'policy-template', data: data('x') });
    expect(kind.status).toBe(422);
    expect(kind.body.Message).toContain('oas-template');
    expect((await s.dash(t.key, 'POST', '/api/assets', { name: 'no data' })).status).toBe(400);
    expect((await s.dash(t.key, 'POST', '/api/assets', { id: 'a b', data: data('x') })).status).toBe(400);
    const ext = await s.dash(t.key, 'POST', '/api/assets', { data: { 'x-gw-api-gateway': { server: { listenPath: { strip: 'yes' } } } } });
    expect(ext.status).toBe(400);
    expect(ext.body.Meta.errors[0].path).toBe('body.data.x-gw-api-gateway.server.listenPath.strip');
    expect((await s.dash(t.key, 'GET', '/api/assets')).body).toMatchObject({ assets: [], pages: 0 });
  });

  it('another organisation cannot read, list, replace or delete an asset (404)', async () => {
    const t = await s.tenant();
    const other = await s.tenant();
    const r = await s.dash(t.key, 'POST', '/api/assets', { id: 'mine', data: data('mine') });
    for (const id of [r.body.Meta, 'mine']) {
      expect((await s.dash(other.key, 'GET', `/api/assets/${id}`)).status).toBe(404);
      expect((await s.dash(other.key, 'PUT', `/api/assets/${id}`, { data: data('stolen') })).status).toBe(404);
      expect((await s.dash(other.key, 'DELETE', `/api/assets/${id}`)).status).toBe(404);
    }
    expect((await s.dash(other.key, 'GET', '/api/assets')).body.assets).toEqual([]);
    expect((await s.dash(t.key, 'GET', '/api/assets/mine')).body.data.info.title).toBe('mine');
  });

  it('pages the list from a counter: 12 assets are 2 pages; p=-1 gives all; cursors walk each once', async () => {
    const t = await s.tenant();
    for (let i = 0; i < 12; i++) expect((await s.dash(t.key, 'POST', '/api/assets', { name: `a${i}`, data: data(`t${i}`) })).status).toBe(200);
    const p1 = await s.dash(t.key, 'GET', '/api/assets?p=1');
    expect(p1.body.pages).toBe(2);
    expect(p1.body.assets).toHaveLength(10);
    expect(p1.body.assets.map((a: Any) => a.name)).toEqual(Array.from({ length: 10 }, (_, i) => `a${i}`));
    const p2 = await s.dash(t.key, 'GET', '/api/assets?p=2');
    expect(p2.body.assets.map((a: Any) => a.name)).toEqual(['a10', 'a11']);
    expect((await s.dash(t.key, 'GET', '/api/assets?p=-1')).body).toMatchObject({ pages: 1, assets: expect.any(Array) });
    expect((await s.dash(t.key, 'GET', '/api/assets?p=-1')).body.assets).toHaveLength(12);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await s.dash(t.key, 'GET', `/api/assets?page_size=5${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.body.assets.map((a: Any) => a._id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(12);
    expect(seen).toHaveLength(12);
  });

  it('replaces with If-Match: new version and ETag on success; without it the last write wins', async () => {
    const t = await s.tenant();
    const r = await s.dash(t.key, 'POST', '/api/assets', { id: 'v-asset', name: 'one', data: data('one') });
    const put = await s.dash(t.key, 'PUT', '/api/assets/v-asset', { name: 'two', description: 'd', data: data('two') }, { 'if-match': '"1"' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ Status: 'OK', Message: 'Asset updated', Meta: r.body.Meta });
    expect(put.headers.get('etag')).toBe('"2"');
    const got = await s.dash(t.key, 'GET', '/api/assets/v-asset');
    expect(got.body).toMatchObject({ _id: r.body.Meta, id: 'v-asset', name: 'two', description: 'd', data: data('two') });
    expect(got.headers.get('etag')).toBe('"2"');
    // Without If-Match the last write wins; server-owned fields in the body are ignored.
    const lww = await s.dash(t.key, 'PUT', '/api/assets/v-asset', { ...got.body, _id: 'ffffffffffffffffffffffff', org_id: 'elsewhere', name: 'four' });
    expect(lww.status).toBe(200);
    expect((await s.dash(t.key, 'GET', `/api/assets/${r.body.Meta}`)).body).toMatchObject({ name: 'four', org_id: t.orgId });
    expect((await s.dash(t.key, 'PUT', '/api/assets/v-asset', { kind: 'other', data: data('x') })).status).toBe(422);
    expect((await s.dash(t.key, 'PUT', '/api/assets/nope', { data: data('x') })).status).toBe(404);
  });

  it('moves the custom id on replace: the old id is free, a taken id is 409', async () => {
    const t = await s.tenant();
    const a = await s.dash(t.key, 'POST', '/api/assets', { id: 'old-id', data: data('a') });
    await s.dash(t.key, 'POST', '/api/assets', { id: 'taken-id', data: data('b') });
    expect((await s.dash(t.key, 'PUT', '/api/assets/old-id', { id: 'taken-id', data: data('a2') })).status).toBe(409);
    expect((await s.dash(t.key, 'GET', '/api/assets/old-id')).body.data.info.title).toBe('a');
    const moved = await s.dash(t.key, 'PUT', '/api/assets/old-id', { id: 'new-id', data: data('a3') });
    expect(moved.status).toBe(200);
    expect((await s.dash(t.key, 'GET', '/api/assets/old-id')).status).toBe(404);
    expect((await s.dash(t.key, 'GET', '/api/assets/new-id')).body).toMatchObject({ _id: a.body.Meta, id: 'new-id' });
    // Without an id in the body the custom id stays.
    await s.dash(t.key, 'PUT', '/api/assets/new-id', { data: data('a4') });
    expect((await s.dash(t.key, 'GET', '/api/assets/new-id')).body.data.info.title).toBe('a4');
    expect((await s.dash(t.key, 'POST', '/api/assets', { id: 'old-id', data: data('c') })).status).toBe(200);
  });

  it('deletes the asset and its id marker, and the count follows', async () => {
    const t = await s.tenant();
    const a = await s.dash(t.key, 'POST', '/api/assets', { id: 'gone', data: data('a') });
    await s.dash(t.key, 'POST', '/api/assets', { data: data('b') });
    const del = await s.dash(t.key, 'DELETE', '/api/assets/gone');
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ Status: 'OK', Message: 'Asset deleted', Meta: a.body.Meta });
    expect((await s.dash(t.key, 'GET', '/api/assets/gone')).status).toBe(404);
    expect((await s.dash(t.key, 'GET', `/api/assets/${a.body.Meta}`)).status).toBe(404);
    expect((await s.dash(t.key, 'DELETE', '/api/assets/gone')).status).toBe(404);
    const list = await s.dash(t.key, 'GET', '/api/assets?page_size=1');
    expect(list.body).toMatchObject({ pages: 1 });
    expect(list.body.assets).toHaveLength(1);
    expect((await s.dash(t.key, 'POST', '/api/assets', { id: 'gone', data: data('again') })).status).toBe(200);
  });
});
