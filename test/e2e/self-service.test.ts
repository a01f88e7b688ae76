/**
 * Self-service (contract §9a): the dashboard group manages everything an organisation owns with its
 * own access key. Tenancy of every route is the tenant matrix's (test/hardening/tenant.test.ts);
 * here each route's own behaviour.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useStage } from '../support/file-stage';
import { oasDoc, rightsFor, uid } from '../support/fixtures';

const s = useStage();
let orgId: string;
let key: string;
beforeAll(async () => {
  ({ orgId, key } = await s.tenant());
});

const classic = (apiId: string, extra: Record<string, unknown> = {}) => ({
  api_definition: { api_id: apiId, name: apiId, proxy: { listen_path: `/${apiId}/`, target_url: 'http://upstream.example' }, ...extra },
});

describe('APIs with the dashboard key', () => {
  it('creates a classic API (Meta db id, ID api_id), reads it by either id, replaces it under If-Match and deletes it', async () => {
    const apiId = uid('dash-classic');
    const created = await s.dash(key, 'POST', '/api/apis', classic(apiId));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toEqual({ Status: 'OK', Message: 'API created', Meta: expect.stringMatching(/^[0-9a-f]{24}$/), ID: apiId });
    const dbId = created.body.Meta;
    const got = await s.dash(key, 'GET', `/api/apis/${apiId}`);
    expect(got.status).toBe(200);
    expect(got.body.api_definition).toMatchObject({ api_id: apiId, id: dbId, org_id: orgId, is_oas: false });
    expect(got.body.oas).toBeUndefined();
    expect((await s.dash(key, 'GET', `/api/apis/${dbId}`)).body.api_definition.api_id).toBe(apiId);
    const etag = got.headers.get('etag')!;
    const put = await s.dash(key, 'PUT', `/api/apis/${dbId}`, classic(apiId, { name: 'renamed' }), { 'if-match': etag });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toEqual({ Status: 'OK', Message: 'API updated', Meta: null });
    expect(put.headers.get('etag')).toBe('"2"');
    expect((await s.dash(key, 'PUT', `/api/apis/${apiId}`, classic(apiId), { 'if-match': etag })).status).toBe(412);
    expect((await s.dash(key, 'PUT', `/api/apis/${apiId}`, classic('another-id'))).status).toBe(400);
    expect((await s.gw('GET', `/gw/apis/${apiId}`)).body).toMatchObject({ name: 'renamed', org_id: orgId });
    const del = await s.dash(key, 'DELETE', `/api/apis/${apiId}`);
    expect(del.body).toEqual({ Status: 'OK', Message: 'API deleted', Meta: null });
    expect((await s.dash(key, 'GET', `/api/apis/${apiId}`)).status).toBe(404);
  });

  it("stamps the caller's organisation; another org_id is 400 and creates nothing", async () => {
    const apiId = uid('dash-org');
    const other = await s.dash(key, 'POST', '/api/apis', classic(apiId, { org_id: 'someone-else' }));
    expect(other.status).toBe(400);
    expect((await s.gw('GET', `/gw/apis/${apiId}`)).status).toBe(404);
    const doc = oasDoc(uid('dash-oas-org'), 'someone-else');
    expect((await s.dash(key, 'POST', '/api/apis/oas', doc)).status).toBe(400);
    const same = await s.dash(key, 'POST', '/api/apis', classic(apiId, { org_id: orgId }));
    expect(same.status).toBe(200);
  });

  it('creates, reads (mode=public too) and replaces an OAS API, and links a version', async () => {
    const apiId = uid('dash-oas');
    const doc = oasDoc(apiId, '');
    delete (doc['x-gw-api-gateway'].info as Record<string, unknown>).orgId;
    const created = await s.dash(key, 'POST', '/api/apis/oas', doc);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ Status: 'OK', Message: 'API created', ID: apiId });
    const got = await s.dash(key, 'GET', `/api/apis/oas/${apiId}`);
    expect(got.body['x-gw-api-gateway'].info).toMatchObject({ id: apiId, orgId });
    expect((await s.dash(key, 'GET', `/api/apis/oas/${apiId}?mode=public`)).body['x-gw-api-gateway']).toBeUndefined();
    const entry = await s.dash(key, 'GET', `/api/apis/${apiId}`);
    expect(entry.body.oas['x-gw-api-gateway'].info.id).toBe(apiId);
    const next = { ...got.body, info: { ...got.body.info, title: 'Renamed' } };
    const put = await s.dash(key, 'PUT', `/api/apis/oas/${apiId}`, next, { 'if-match': got.headers.get('etag')! });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toEqual({ Status: 'OK', Message: 'API updated', Meta: null });
    const child = uid('dash-oas-v2');
    const v = await s.dash(key, 'POST', `/api/apis/oas?base_api_id=${apiId}&new_version_name=v2`, oasDoc(child, orgId));
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    const base = await s.dash(key, 'GET', `/api/apis/oas/${apiId}`);
    expect(base.body['x-gw-api-gateway'].info.versioning.versions).toEqual([{ id: child, name: 'v2' }]);
    // A classic replace of an OAS API keeps it OAS, with its versions.
    const cl = await s.dash(key, 'PUT', `/api/apis/${apiId}`, { api_definition: { ...entry.body.api_definition, name: 'Classic name' } });
    expect(cl.status, JSON.stringify(cl.body)).toBe(200);
    const after = await s.dash(key, 'GET', `/api/apis/oas/${apiId}`);
    expect(after.body['x-gw-api-gateway'].info).toMatchObject({ name: 'Classic name', versioning: { versions: [{ id: child, name: 'v2' }] } });
    expect((await s.dash(key, 'DELETE', `/api/apis/${apiId}`)).status).toBe(409);
    // A listen path moves with a replace; a version's delete leaves its base's list, then the base goes.
    const moved = oasDoc(apiId, orgId, { gateway: { server: { listenPath: { value: `/${apiId}-moved/`, strip: true } } } });
    expect((await s.dash(key, 'PUT', `/api/apis/oas/${apiId}`, moved)).status).toBe(200);
    expect((await s.dash(key, 'DELETE', `/api/apis/${child}`)).status).toBe(200);
    expect((await s.dash(key, 'GET', `/api/apis/oas/${apiId}`)).body['x-gw-api-gateway'].info.versioning.versions).toEqual([]);
    expect((await s.dash(key, 'DELETE', `/api/apis/${apiId}`)).status).toBe(200);
  });

  it('moves a classic listen path with a classic replace', async () => {
    const apiId = uid('dash-move');
    expect((await s.dash(key, 'POST', '/api/apis', classic(apiId))).status).toBe(200);
    const def = { api_definition: { ...classic(apiId).api_definition, proxy: { listen_path: `/${apiId}-2/`, target_url: 'http://upstream.example' } } };
    expect((await s.dash(key, 'PUT', `/api/apis/${apiId}`, def)).status).toBe(200);
    expect(
      (await s.dash(key, 'POST', '/api/apis', classic(uid('dash-move-b'), { proxy: { listen_path: `/${apiId}/`, target_url: 'http://u.example' } }))).status,
    ).toBe(200);
  });
});

describe('keys with the dashboard key, by hash', () => {
  it('creates a key (clear key once), lists it by hash newest first, reads the live quota, replaces it (reset_quota=1 resets) and deletes it', async () => {
    const apiId = uid('dash-key-api');
    expect((await s.dash(key, 'POST', '/api/apis', classic(apiId))).status).toBe(200);
    const created = await s.dash(key, 'POST', '/api/keys', { alias: 'first', access_rights: rightsFor(apiId), quota_max: 5, quota_renewal_rate: 3600 });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { key_id: clear, key_hash: hash } = created.body;
    expect(clear.startsWith(orgId)).toBe(true);
    expect(created.body).toMatchObject({ api_model: {}, data: { alias: 'first', org_id: orgId, quota_remaining: 5 } });
    const second = await s.dash(key, 'POST', '/api/keys', { alias: 'second', access_rights: rightsFor(apiId) });
    const list = await s.dash(key, 'GET', '/api/keys?p=-1');
    expect(list.status).toBe(200);
    expect(list.body.keys.map((k: any) => k.key_hash).slice(0, 2)).toEqual([second.body.key_hash, hash]);
    expect(list.body.keys[1]).toEqual({
      key_hash: hash,
      alias: 'first',
      apis: [apiId],
      apply_policies: [],
      expires: 0,
      is_inactive: false,
      quota_max: 5,
      quota_remaining: 5,
      quota_renews: expect.any(Number),
      date_created: expect.any(String),
      last_updated: expect.any(String),
    });
    expect(JSON.stringify(list.body)).not.toContain(clear);
    expect((await s.dash(key, 'GET', '/api/keys?page_size=1')).body).toMatchObject({ pages: 2, next_cursor: expect.any(String) });
    // Spend one unit, then read it live.
    expect((await s.gw('POST', '/gw/sessions/check', { key: clear, api_id: apiId, path: '/x', method: 'GET' })).status).toBe(200);
    const got = await s.dash(key, 'GET', `/api/keys/${hash}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ api_model: {}, key_hash: hash, data: expect.objectContaining({ alias: 'first', quota_remaining: 4 }) });
    expect(JSON.stringify(got.body)).not.toContain(clear);
    const kept = await s.dash(key, 'PUT', `/api/keys/${hash}`, { ...got.body.data, alias: 'renamed' }, { 'if-match': got.headers.get('etag')! });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.data).toMatchObject({ alias: 'renamed', quota_remaining: 4, org_id: orgId });
    expect((await s.dash(key, 'PUT', `/api/keys/${hash}`, got.body.data, { 'if-match': got.headers.get('etag')! })).status).toBe(412);
    const reset = await s.dash(key, 'PUT', `/api/keys/${hash}?reset_quota=1`, { ...got.body.data, alias: 'renamed' });
    expect(reset.body.data.quota_remaining).toBe(5);
    // The clear key is not a path id here: only the hash names the key.
    expect((await s.dash(key, 'GET', `/api/keys/${clear}`)).status).toBe(404);
    const del = await s.dash(key, 'DELETE', `/api/keys/${hash}`);
    expect(del.body).toEqual({ Status: 'OK', Message: 'Key deleted', Meta: null });
    expect((await s.gw('GET', `/gw/keys/${hash}?hashed=1`)).status).toBe(404);
    const after = await s.dash(key, 'GET', '/api/keys?p=-1');
    expect(after.body.keys.map((k: any) => k.key_hash)).not.toContain(hash);
  });

  it('a replace moves the basic-auth user name (the old one is free again) and keeps the password hash out of every answer', async () => {
    const apiId = uid('dash-user');
    expect((await s.dash(key, 'POST', '/api/apis', classic(apiId))).status).toBe(200);
    const u1 = uid('u1');
    const k = (await s.dash(key, 'POST', '/api/keys', { access_rights: rightsFor(apiId), basic_auth_data: { user: u1, password: 'pw-123456' } })).body;
    const put = await s.dash(key, 'PUT', `/api/keys/${k.key_hash}`, {
      access_rights: rightsFor(apiId),
      basic_auth_data: { user: uid('u2'), password: 'pw-654321' },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(JSON.stringify(put.body)).not.toContain('pw-654321');
    const again = await s.dash(key, 'POST', '/api/keys', { access_rights: rightsFor(apiId), basic_auth_data: { user: u1, password: 'pw-123456' } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });

  it('counts keys made by the gateway and the admin route too, and an org_id of another organisation is 400', async () => {
    const t = await s.tenant();
    const apiId = uid('dash-count');
    expect((await s.dash(t.key, 'POST', '/api/apis', classic(apiId))).status).toBe(200);
    await s.gw('POST', '/gw/keys/create', { org_id: t.orgId, access_rights: rightsFor(apiId) });
    await s.admin('POST', '/admin/org/keys', { org_id: t.orgId, access_rights: rightsFor(apiId) });
    await s.dash(t.key, 'POST', '/api/keys', { access_rights: rightsFor(apiId) });
    const other = await s.dash(t.key, 'POST', '/api/keys', { org_id: orgId, access_rights: rightsFor(apiId) });
    expect(other.status).toBe(400);
    const l = await s.dash(t.key, 'GET', '/api/keys?page_size=2');
    expect(l.body.pages).toBe(2);
    expect(l.body.keys).toHaveLength(2);
    const gone = (await s.dash(t.key, 'GET', '/api/keys?p=-1')).body.keys[0].key_hash;
    expect((await s.gw('DELETE', `/gw/keys/${gone}?hashed=1`)).status).toBe(200);
    expect((await s.dash(t.key, 'GET', '/api/keys?page_size=2')).body.pages).toBe(1);
  });
});

describe('policies with the dashboard key', () => {
  it("creates (24-hex id when none), lists, reads, replaces under If-Match and deletes the organisation's policies", async () => {
    const apiId = uid('dash-pol-api');
    expect((await s.dash(key, 'POST', '/api/apis', classic(apiId))).status).toBe(200);
    const made = await s.dash(key, 'POST', '/api/portal/policies', { name: 'Gold', rate: 10, per: 1, access_rights: rightsFor(apiId) });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.Meta;
    expect(made.body).toEqual({ Status: 'OK', Message: 'Policy created', Meta: expect.stringMatching(/^[0-9a-f]{24}$/), ID: id });
    const named = uid('dash-pol');
    expect((await s.dash(key, 'POST', '/api/portal/policies', { id: named, name: 'Silver' })).body).toMatchObject({ Meta: named, ID: named });
    const list = await s.dash(key, 'GET', '/api/portal/policies?p=-1');
    expect(list.status).toBe(200);
    expect(list.body.Data.map((p: any) => p.id)).toEqual(expect.arrayContaining([id, named]));
    expect(list.body.Data.every((p: any) => p.org_id === orgId)).toBe(true);
    expect((await s.dash(key, 'GET', '/api/portal/policies?page_size=1')).body).toMatchObject({
      Pages: list.body.Data.length,
      next_cursor: expect.any(String),
    });
    const got = await s.dash(key, 'GET', `/api/portal/policies/${id}`);
    expect(got.body).toMatchObject({ id, name: 'Gold', org_id: orgId });
    const put = await s.dash(key, 'PUT', `/api/portal/policies/${id}`, { ...got.body, name: 'Gold 2' }, { 'if-match': got.headers.get('etag')! });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toEqual({ Status: 'OK', Message: 'Policy updated', Meta: id });
    expect((await s.dash(key, 'PUT', `/api/portal/policies/${id}`, { name: 'stale' }, { 'if-match': got.headers.get('etag')! })).status).toBe(412);
    expect((await s.dash(key, 'PUT', `/api/portal/policies/${id}`, { name: 'x', org_id: 'someone-else' })).status).toBe(400);
    expect((await s.gw('GET', `/gw/policies/${id}`)).body).toMatchObject({ name: 'Gold 2', org_id: orgId });
    expect((await s.dash(key, 'DELETE', `/api/portal/policies/${id}`)).body).toEqual({ Status: 'OK', Message: 'Policy deleted', Meta: id });
    expect((await s.dash(key, 'GET', `/api/portal/policies/${id}`)).status).toBe(404);
  });

  it('a key of the dashboard applies a dashboard policy', async () => {
    const apiId = uid('dash-pol-key');
    expect((await s.dash(key, 'POST', '/api/apis', classic(apiId))).status).toBe(200);
    const pol = (await s.dash(key, 'POST', '/api/portal/policies', { name: 'P', quota_max: 3, quota_renewal_rate: 60, access_rights: rightsFor(apiId) })).body
      .Meta;
    const k = await s.dash(key, 'POST', '/api/keys', { apply_policies: [pol] });
    expect(k.status, JSON.stringify(k.body)).toBe(200);
    const got = await s.dash(key, 'GET', `/api/keys/${k.body.key_hash}`);
    expect(got.body.data).toMatchObject({ quota_max: 3, quota_remaining: 3, access_rights: { [apiId]: expect.any(Object) } });
  });
});

describe('OAuth clients with the dashboard key', () => {
  it("creates (secret once), lists without secrets, updates under If-Match and deletes clients of the organisation's API", async () => {
    const apiId = uid('dash-oauth-api');
    const api = await s.dash(key, 'POST', '/api/apis', classic(apiId));
    const pol = (await s.dash(key, 'POST', '/api/portal/policies', { name: 'O', access_rights: rightsFor(apiId) })).body.Meta;
    const made = await s.dash(key, 'POST', `/api/apis/oauth/${apiId}`, { redirect_uri: 'https://app.example/cb', policy_id: pol, description: 'd' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({ api_id: apiId, redirect_uri: 'https://app.example/cb', policy_id: pol, secret: expect.any(String) });
    const clientId = made.body.client_id;
    await s.dash(key, 'POST', `/api/apis/oauth/${apiId}`, { redirect_uri: 'https://app.example/cb2' });
    const list = await s.dash(key, 'GET', `/api/apis/oauth/${api.body.Meta}?page_size=1`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ apps: [expect.objectContaining({ client_id: clientId })], pages: 2 });
    expect(JSON.stringify(list.body)).not.toContain(made.body.secret);
    const put = await s.dash(key, 'PUT', `/api/apis/oauth/${apiId}/${clientId}`, { redirect_uri: 'https://app.example/new' }, { 'if-match': '"1"' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ client_id: clientId, redirect_uri: 'https://app.example/new', policy_id: '' });
    expect(put.body.secret).toBeUndefined();
    expect(put.headers.get('etag')).toBe('"2"');
    expect((await s.dash(key, 'PUT', `/api/apis/oauth/${apiId}/${clientId}`, { redirect_uri: 'https://x.example' }, { 'if-match': '"1"' })).status).toBe(412);
    const del = await s.dash(key, 'DELETE', `/api/apis/oauth/${apiId}/${clientId}`);
    expect(del.body).toEqual({ Status: 'OK', Message: 'OAuth client deleted', Meta: null });
    expect((await s.dash(key, 'GET', `/api/apis/oauth/${apiId}?p=-1`)).body.apps).toHaveLength(1);
  });
});

describe('usage over time', () => {
  it('answers one zero-filled row per hour or day from what the gateway reported, per API and per key; ranges are bounded', async () => {
    const apiId = uid('dash-usage');
    const api = await s.dash(key, 'POST', '/api/apis', classic(apiId));
    const k = (await s.dash(key, 'POST', '/api/keys', { access_rights: rightsFor(apiId) })).body;
    const rec = (ts: string, code: number, total: number) => ({
      api_id: apiId,
      path: '/x',
      method: 'GET',
      response_code: code,
      key_hash: k.key_hash,
      org_id: orgId,
      timestamp: ts,
      request_time: total,
      latency: { total, upstream: total / 2 },
    });
    const sent = await s.gw('POST', '/gw/analytics', {
      records: [rec('2025-02-03T10:15:00Z', 200, 10), rec('2025-02-03T10:45:00Z', 500, 30), rec('2025-02-04T00:05:00Z', 200, 4)],
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const byDay = await s.dash(key, 'GET', `/api/usage/apis/${api.body.Meta}/2/2/2025/4/2/2025`);
    expect(byDay.status, JSON.stringify(byDay.body)).toBe(200);
    expect(byDay.body).toEqual({
      resolution: 'day',
      from: '2025-02-02T00:00:00.000Z',
      to: '2025-02-05T00:00:00.000Z',
      data: [
        { period: '2025-02-02T00:00:00.000Z', hits: 0, success: 0, error: 0, latency_avg: 0, latency_max: 0, upstream_latency_avg: 0 },
        { period: '2025-02-03T00:00:00.000Z', hits: 2, success: 1, error: 1, latency_avg: 20, latency_max: 30, upstream_latency_avg: 10 },
        { period: '2025-02-04T00:00:00.000Z', hits: 1, success: 1, error: 0, latency_avg: 4, latency_max: 4, upstream_latency_avg: 2 },
      ],
    });
    const byHour = await s.dash(key, 'GET', `/api/usage/keys/${k.key_hash}/3/2/2025/3/2/2025?resolution=hour`);
    expect(byHour.status, JSON.stringify(byHour.body)).toBe(200);
    expect(byHour.body.data).toHaveLength(24);
    expect(byHour.body.data[10]).toEqual({
      period: '2025-02-03T10:00:00.000Z',
      hits: 2,
      success: 1,
      error: 1,
      latency_avg: 20,
      latency_max: 30,
      upstream_latency_avg: 10,
    });
    expect((await s.dash(key, 'GET', `/api/usage/apis/${apiId}/1/1/2025/2/2/2025?resolution=hour`)).status).toBe(400);
    expect((await s.dash(key, 'GET', `/api/usage/apis/${apiId}/1/1/2025/2/2/2026`)).status).toBe(400);
    expect((await s.dash(key, 'GET', `/api/usage/apis/${apiId}/1/1/2025/2/1/2025?resolution=week`)).status).toBe(400);
    // A retried batch counts once in the API's usage too.
    const batch = { batch_id: uid('batch'), records: [rec('2025-03-01T01:00:00Z', 200, 8)] };
    await s.gw('POST', '/gw/analytics', batch);
    await s.gw('POST', '/gw/analytics', batch);
    expect((await s.dash(key, 'GET', `/api/usage/apis/${apiId}/1/3/2025/1/3/2025`)).body.data[0].hits).toBe(1);
  });
});
