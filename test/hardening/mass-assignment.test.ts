/**
 * Mass assignment (RELIABILITY.md): server-owned fields sent in bodies — database ids, org_id on
 * dashboard routes, key_hash, creation and update stamps, version, generated secrets, and the
 * storage's own attributes (PK, SK, entity, index keys, the TTL attribute) — are ignored or
 * refused (4xx), never stored as sent. Checked per resource by reading the object back.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../shared/store/apis';
import { userKeys } from '../../shared/store/users';
import { useStage } from '../support/file-stage';
import { allIds, viewOf } from './resources/views';
import { assetData, hookBody, oasDoc, rightsFor, STREAMS_TYPE, streamsDoc, uid } from '../support/fixtures';
import { buildWorld, type World } from '../support/world';

const s = useStage();
let A: World;
let B: World;
beforeAll(async () => {
  A = await buildWorld(s, 'ma-a');
  B = await buildWorld(s, 'ma-b');
});

const FORGED_ID = 'f0f0f0f0f0f0f0f0f0f0f0f0';
const FORGED_TIME = '1999-01-01T00:00:00.000Z';
const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

/** Server-owned stamps and the version, as a client might forge them. */
const STAMPS = { date_created: FORGED_TIME, created_at: FORGED_TIME, last_updated: FORGED_TIME, updated_at: FORGED_TIME, version: 99 };

/** The storage's own attributes: a body that set these could move an item into another list or expire it. */
const storageAttrs = (victim: World) => ({
  PK: `ORG#${victim.orgId}`,
  SK: 'ORG',
  entity: 'org',
  GSI1PK: userKeys.ofOrg(victim.orgId),
  GSI1SK: '0',
  GSI2PK: apiKeys.ofOrg(victim.orgId),
  GSI2SK: '0',
  GSI3PK: apiKeys.ofOrg(victim.orgId),
  GSI3SK: '0',
  expires_at: 1,
});
const STORAGE_NAMES = ['PK', 'SK', 'entity', 'GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'GSI3PK', 'GSI3SK', 'expires_at'];

/** None of the forged values shows in the object read back. */
function expectNotForged(obj: Record<string, any>, what: string) {
  for (const [k, v] of Object.entries(STAMPS)) if (k in obj) expect(obj[k], `${what}.${k}`).not.toEqual(v);
  for (const k of STORAGE_NAMES) expect(obj, `${what} shows ${k}`).not.toHaveProperty(k);
  expect(JSON.stringify(obj), what).not.toContain(FORGED_ID);
  expect(JSON.stringify(obj), what).not.toContain(FORGED_TIME);
}

/** A 4xx refuses the forgery (fine); a 2xx must have ignored it. */
const accepted = (status: number, what: string) => {
  expect(status, what).toBeLessThan(500);
  return status === 200;
};

describe('mass assignment', () => {
  it('users: id, access key, password hash and stamps are generated', async () => {
    const email = `forger-${uid('u')}@example.com`;
    const forgedKey = 'a'.repeat(32);
    const r = await s.admin('POST', '/admin/users', {
      org_id: A.orgId,
      email_address: email,
      id: FORGED_ID,
      _id: FORGED_ID,
      access_key: forgedKey,
      password_hash: 'forged',
      ...STAMPS,
      ...storageAttrs(B),
    });
    if (!accepted(r.status, 'user create')) return;
    expect(r.body.Meta.access_key).not.toBe(forgedKey);
    expect((await s.dash(forgedKey, 'GET', '/api/users')).status).toBe(401);
    const user = (await s.dash(A.key, 'GET', '/api/users?p=-1')).body.users.find((u: any) => u.email_address === email);
    expect(user.id).toBe(r.body.Meta.id);
    expectNotForged(user, 'user');
    expect(user).not.toHaveProperty('password_hash');
    // B's users list (GSI1 partition forged above) is untouched.
    expect((await allIds(s, B.key, '/api/users', (b) => b.users.map((u: any) => u.id))).all.sort()).toEqual([...B.userIds].sort());
  });

  it('users (replace): id, organisation, access key, password hash, stamps and storage attributes are kept', async () => {
    const email = `replaced-${uid('u')}@example.com`;
    const made = await s.admin('POST', '/admin/users', { org_id: A.orgId, email_address: email });
    expect(made.status).toBe(200);
    const { id, access_key: key } = made.body.Meta;
    const listedIn = async (w: World) => (await s.dash(w.key, 'GET', '/api/users?p=-1')).body.users.find((u: any) => u.id === id);
    const before = await listedIn(A);
    const forgedKey = 'b'.repeat(32);
    const r = await s.admin('PUT', `/admin/users/${id}`, {
      email_address: email,
      active: true,
      first_name: 'Replaced',
      id: FORGED_ID,
      _id: FORGED_ID,
      org_id: B.orgId,
      access_key: forgedKey,
      access_key_hash: sha256(forgedKey),
      password_hash: 'forged',
      email_lower: 'forged@x.example',
      api_model: { forged: true },
      ...STAMPS,
      ...storageAttrs(B),
    });
    if (!accepted(r.status, 'user replace')) return;
    const after = await listedIn(A);
    expect(after).toMatchObject({ id, org_id: A.orgId, first_name: 'Replaced', created_at: before.created_at, api_model: {}, version: before.version + 1 });
    expectNotForged(after, 'user after replace');
    expect(after).not.toHaveProperty('password_hash');
    expect(after).not.toHaveProperty('access_key_hash');
    // The same access key still works, the forged one does not; B's users are untouched.
    expect((await s.dash(key, 'GET', '/api/users')).status).toBe(200);
    expect((await s.dash(forgedKey, 'GET', '/api/users')).status).toBe(401);
    expect(await listedIn(B)).toBeUndefined();
    expect((await allIds(s, B.key, '/api/users', (b) => b.users.map((u: any) => u.id))).all.sort()).toEqual([...B.userIds].sort());
  });

  it('organisations: the id is the given one or generated, never taken from _id', async () => {
    const r = await s.admin('POST', '/admin/organisations', { owner_name: 'forger', _id: FORGED_ID, ...STAMPS });
    if (!accepted(r.status, 'org create')) return;
    expect(r.body.Meta).toMatch(/^[0-9a-f]{24}$/);
    expect(r.body.Meta).not.toBe(FORGED_ID);
  });

  it('assets: _id, org_id and stamps ignored on create and replace', async () => {
    const forged = { _id: FORGED_ID, org_id: B.orgId, ...STAMPS, ...storageAttrs(B) };
    const c = await s.dash(A.key, 'POST', '/api/assets', { name: 'ma', data: assetData('ma'), ...forged });
    if (!accepted(c.status, 'asset create')) return;
    const id = c.body.Meta as string;
    expect(id).not.toBe(FORGED_ID);
    const got = await s.dash(A.key, 'GET', `/api/assets/${id}`);
    expect(got.body).toMatchObject({ _id: id, org_id: A.orgId });
    expectNotForged(got.body, 'asset');
    const u = await s.dash(A.key, 'PUT', `/api/assets/${id}`, { name: 'ma2', data: assetData('ma2'), ...forged });
    expect(u.status).toBeLessThan(500);
    const after = await s.dash(A.key, 'GET', `/api/assets/${id}`);
    expect(after.body).toMatchObject({ _id: id, org_id: A.orgId });
    expectNotForged(after.body, 'asset after replace');
    expect((await s.dash(B.key, 'GET', `/api/assets/${id}`)).status).toBe(404);
    expect((await allIds(s, B.key, '/api/assets', (b) => b.assets.map((a: any) => a._id))).all).toEqual([B.assetDbId]);
  });

  it('hooks: id, org_id and stamps ignored on create and replace', async () => {
    const forged = { id: FORGED_ID, _id: FORGED_ID, org_id: B.orgId, ...STAMPS, ...storageAttrs(B) };
    const c = await s.dash(A.key, 'POST', '/api/hooks', { ...hookBody('ma'), ...forged });
    if (!accepted(c.status, 'hook create')) return;
    const id = c.body.Meta as string;
    expect(id).not.toBe(FORGED_ID);
    const got = await s.dash(A.key, 'GET', `/api/hooks/${id}`);
    expect(got.body).toMatchObject({ id, org_id: A.orgId, version: 1 });
    expectNotForged(got.body, 'hook');
    expect((await s.dash(A.key, 'PUT', `/api/hooks/${id}`, { ...hookBody('ma2'), ...forged })).status).toBeLessThan(500);
    const after = await s.dash(A.key, 'GET', `/api/hooks/${id}`);
    expect(after.body).toMatchObject({ id, org_id: A.orgId, created_at: got.body.created_at });
    expectNotForged(after.body, 'hook after replace');
    expect((await allIds(s, B.key, '/api/hooks', (b) => b.hooks.map((h: any) => h.id))).all).toEqual([B.hookId]);
  });

  it('gateway and admin keys: key id, key_hash, stamps and the live quota are the server’s', async () => {
    const forged = { key: 'chosen-key', key_id: 'chosen-key', key_hash: 'f'.repeat(64), quota_remaining: 999, ...STAMPS };
    for (const [what, call] of [
      [
        'gateway',
        () => s.gw('POST', '/gw/keys/create', { org_id: A.orgId, access_rights: rightsFor(A.apiId), quota_max: 10, quota_renewal_rate: 60, ...forged }),
      ],
      [
        'admin',
        () => s.admin('POST', '/admin/org/keys', { org_id: A.orgId, access_rights: rightsFor(A.apiId), quota_max: 10, quota_renewal_rate: 60, ...forged }),
      ],
    ] as const) {
      const r = await call();
      if (!accepted(r.status, `${what} key create`)) continue;
      const key = (r.body.key ?? r.body.key_id) as string;
      expect(key).not.toBe('chosen-key');
      const got = await s.gw('GET', `/gw/keys/${key}`);
      expect(got.body).toMatchObject({ key_hash: sha256(key), org_id: A.orgId, quota_remaining: 10 });
      expect(got.body.date_created).not.toBe(FORGED_TIME);
      expect(got.body.last_updated).not.toBe(FORGED_TIME);
      expect(got.headers.get('etag')).toBe('"1"');
      expect((await s.gw('GET', '/gw/keys/chosen-key')).status).toBe(404);
    }
  });

  it('dashboard key replace: org_id, key_hash, date_created and version kept; another org cannot be named', async () => {
    const before = await s.gw('GET', `/gw/keys/${A.gwKey}`);
    const r = await s.dash(A.key, 'PUT', `/api/apis/${A.apiId}/keys/${A.gwKey}`, {
      ...before.body,
      org_id: B.orgId,
      key_hash: 'f'.repeat(64),
      ...STAMPS,
      alias: 'ma',
      basic_auth_data: { user: A.username },
    });
    if (!accepted(r.status, 'dashboard key replace')) return;
    const got = await s.gw('GET', `/gw/keys/${A.gwKey}`);
    expect(got.body).toMatchObject({ org_id: A.orgId, key_hash: A.gwKeyHash, date_created: before.body.date_created, alias: 'ma' });
    expect(got.body.last_updated).not.toBe(FORGED_TIME);
    expect(Number(JSON.parse(got.headers.get('etag')!))).toBe(Number(JSON.parse(before.headers.get('etag')!)) + 1);
    // Still A's key: B cannot touch it, A still can.
    expect((await s.dash(B.key, 'PUT', `/api/apis/${B.apiId}/keys/${A.gwKey}`, { access_rights: rightsFor(B.apiId) })).status).toBe(404);
  });

  it('policies: _id, stamps, version and storage attributes ignored on create and replace', async () => {
    const id = uid('ma-pol');
    const victimBefore = await viewOf(s, B);
    const forged = { _id: FORGED_ID, ...STAMPS, ...storageAttrs(B) };
    const c = await s.gw('POST', '/gw/policies', { id, name: 'ma', org_id: A.orgId, rate: 1, per: 1, ...forged });
    if (!accepted(c.status, 'policy create')) return;
    const got = await s.gw('GET', `/gw/policies/${id}`);
    expect(got.body._id).toMatch(/^[0-9a-f]{24}$/);
    expectNotForged(got.body, 'policy');
    expect(got.headers.get('etag')).toBe('"1"');
    expect((await s.gw('PUT', `/gw/policies/${id}`, { id, name: 'ma2', ...forged })).status).toBeLessThan(500);
    const after = await s.gw('GET', `/gw/policies/${id}`);
    expect(after.body).toMatchObject({ _id: got.body._id, date_created: got.body.date_created, name: 'ma2' });
    expectNotForged(after.body, 'policy after replace');
    expect(after.headers.get('etag')).toBe('"2"');
    // The forged index keys named B's users and APIs lists: they are unchanged.
    expect(await viewOf(s, B)).toEqual(victimBefore);
  });

  it('OAuth clients: the secret is always generated; a sent one is neither used nor kept', async () => {
    const forgedSecret = 'f'.repeat(64);
    const c = await s.gw('POST', '/gw/oauth/clients/create', { api_id: A.apiId, redirect_uri: 'https://ma.example/cb', secret: forgedSecret, ...STAMPS });
    if (!accepted(c.status, 'oauth create')) return;
    expect(c.body.secret).not.toBe(forgedSecret);
    const path = `/gw/oauth/clients/${A.apiId}/${c.body.client_id}`;
    // Update accepts only the stored secret back: the forged one is refused, the real one taken.
    expect((await s.gw('PUT', path, { redirect_uri: 'https://ma.example/2', secret: forgedSecret })).status).toBe(400);
    const u = await s.gw('PUT', path, { redirect_uri: 'https://ma.example/3', secret: c.body.secret, ...STAMPS });
    expect(u.status).toBeLessThan(500);
    const listed = (await s.gw('GET', `/gw/oauth/clients/${A.apiId}`)).body.find((x: any) => x.client_id === c.body.client_id);
    expect(listed).not.toHaveProperty('secret');
    expectNotForged(listed, 'oauth client');
  });

  it('APIs: stamps and version are the server’s on gateway create and update', async () => {
    const classicId = uid('ma-classic');
    const c = await s.gw('POST', '/gw/apis', {
      api_id: classicId,
      name: 'ma',
      org_id: A.orgId,
      proxy: { listen_path: `/${classicId}/`, target_url: 'http://u.example' },
      ...STAMPS,
    });
    if (!accepted(c.status, 'classic create')) return;
    const oasId = uid('ma-oas');
    expect((await s.gw('POST', `/gw/apis/oas`, { ...oasDoc(oasId, A.orgId), ...STAMPS })).status).toBe(200);
    const before = await s.gw('GET', `/gw/apis/oas/${oasId}`);
    const dbId = before.body['x-gw-api-gateway'].info.dbId;
    const doc = oasDoc(oasId, A.orgId);
    (doc['x-gw-api-gateway'].info as Record<string, unknown>).dbId = FORGED_ID;
    expect((await s.gw('PUT', `/gw/apis/oas/${oasId}`, { ...doc, ...STAMPS })).status).toBeLessThan(500);
    const after = await s.gw('GET', `/gw/apis/oas/${oasId}`);
    expect(after.body['x-gw-api-gateway'].info.dbId).toBe(dbId);
    const listed = (await s.dash(A.key, 'GET', '/api/apis?p=-1')).body.apis.filter((x: any) => [classicId, oasId].includes(x.api_definition.api_id));
    expect(listed).toHaveLength(2);
    for (const e of listed) {
      expect(e.created_at).not.toBe(FORGED_TIME);
      expect(e.updated_at).not.toBe(FORGED_TIME);
    }
    expect((await s.gw('GET', `/gw/apis/${classicId}`)).headers.get('etag')).toBe('"1"');
  });

  it('streams patch (dashboard): an orgId or dbId in the body cannot move the API to another organisation', async () => {
    const before = await s.gw('GET', `/gw/apis/${A.importedApiId}`);
    const body = streamsDoc(A.importedApiId, { orgId: B.orgId, dbId: FORGED_ID });
    const r = await s.dash(A.key, 'PATCH', `/api/apis/streams/${A.importedApiId}`, JSON.stringify(body), { 'content-type': STREAMS_TYPE });
    expect(r.status).toBeLessThan(500);
    const got = await s.gw('GET', `/gw/apis/oas/${A.importedApiId}`);
    expect(got.body['x-gw-api-gateway'].info).toMatchObject({ orgId: A.orgId, dbId: before.body.id });
    const apiIds = (w: World) => allIds(s, w.key, '/api/apis', (b) => b.apis.map((x: any) => x.api_definition.api_id));
    expect((await apiIds(A)).all).toContain(A.importedApiId);
    expect((await apiIds(B)).all.sort()).toEqual([B.apiId, B.classicApiId, B.importedApiId].sort());
  });
});
