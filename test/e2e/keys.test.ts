import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../shared/store/db/client';
import { SECRET_WITHHELD } from '../../shared/domain/idempotent-reply';
import { useStage, useTenants } from '../support/file-stage';
import { makeApi, makeKey, rightsFor, uid } from '../support/fixtures';

const s = useStage();
const [t] = useTenants(s, 1);
let apiId: string;
beforeAll(async () => {
  apiId = await makeApi(s, t.orgId);
});

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

describe('gateway keys (POST /gw/keys/create, GET and DELETE /gw/keys/{keyRef})', () => {
  it('creates a key whose hash is the SHA-256 of the clear key; get by key and by hash; delete', async () => {
    const r = await s.gw('POST', '/gw/keys/create', {
      org_id: t.orgId,
      access_rights: rightsFor(apiId),
      quota_max: 10,
      quota_renewal_rate: 3600,
      rate: 5,
      per: 1,
      key_hash: 'client-sent',
      date_created: 'yesterday',
      meta_data: { team: 'a' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok', action: 'added' });
    const { key, key_hash } = r.body;
    expect(key.startsWith(t.orgId)).toBe(true);
    expect(key_hash).toBe(sha256(key));

    const byKey = await s.gw('GET', `/gw/keys/${key}`);
    expect(byKey.status).toBe(200);
    expect(byKey.body).toMatchObject({ org_id: t.orgId, key_hash, quota_max: 10, quota_remaining: 10, meta_data: { team: 'a' } });
    expect(byKey.body.date_created).not.toBe('yesterday');
    expect(byKey.body.quota_renews).toBeGreaterThan(Date.now() / 1000 + 3500);
    const byHash = await s.gw('GET', `/gw/keys/${key_hash}?hashed=true`);
    expect(byHash.status).toBe(200);
    expect(byHash.body).toEqual(byKey.body);
    expect((await s.gw('GET', `/gw/keys/${key_hash}`)).status).toBe(404);

    const del = await s.gw('DELETE', `/gw/keys/${key}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ action: 'deleted' });
    expect((await s.gw('GET', `/gw/keys/${key}`)).status).toBe(404);
    expect((await s.gw('DELETE', `/gw/keys/${key}`)).status).toBe(404);
  });

  it('answers 400 without rights or policies, 422 for an unknown API or policy, and stores nothing', async () => {
    const none = await s.gw('POST', '/gw/keys/create', { org_id: t.orgId, quota_max: 5 });
    expect(none.status).toBe(400);
    expect(none.body.status).toBe('error');
    const emptyRights = await s.gw('POST', '/gw/keys/create', { org_id: t.orgId, access_rights: {}, apply_policies: [] });
    expect(emptyRights.status).toBe(400);
    const unknownApi = await s.gw('POST', '/gw/keys/create', { org_id: t.orgId, access_rights: rightsFor('no-such-api') });
    expect(unknownApi.status).toBe(422);
    expect(unknownApi.body.message).toContain('no-such-api');
    const unknownPolicy = await s.gw('POST', '/gw/keys/create', { org_id: t.orgId, apply_policies: ['no-such-policy'] });
    expect(unknownPolicy.status).toBe(422);
    const wrongEntry = await s.gw('POST', '/gw/keys/create', { org_id: t.orgId, access_rights: { [apiId]: { api_id: 'other' } } });
    expect(wrongEntry.status).toBe(400);
  });

  it('hashed=true|1 reads the path as the hash, false|0 as the key; any other value is 400 and deletes nothing', async () => {
    const { key, hash } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId) });
    for (const q of ['hashed=0', 'hashed=false']) {
      expect((await s.gw('GET', `/gw/keys/${key}?${q}`)).status, q).toBe(200);
      expect((await s.gw('GET', `/gw/keys/${hash}?${q}`)).status, q).toBe(404);
    }
    expect((await s.gw('GET', `/gw/keys/${hash}?hashed=1`)).status).toBe(200);
    for (const v of ['yes', '2', '', 'TRUE']) {
      for (const method of ['GET', 'DELETE']) {
        const r = await s.gw(method, `/gw/keys/${hash}?hashed=${v}`);
        expect(r.status, `${method} hashed=${v}`).toBe(400);
        expect(r.body).toMatchObject({ status: 'error', errors: [{ path: 'query.hashed' }] });
      }
    }
    expect((await s.gw('DELETE', `/gw/keys/${hash}?hashed=0`)).status).toBe(404);
    expect((await s.gw('GET', `/gw/keys/${key}`)).status).toBe(200);
    expect((await s.gw('DELETE', `/gw/keys/${hash}?hashed=1`)).status).toBe(200);
    expect((await s.gw('GET', `/gw/keys/${key}`)).status).toBe(404);
  });

  it('stores basic-auth passwords hashed and never returns them', async () => {
    const user = `user-${Date.now()}@example.com`;
    const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId), basic_auth_data: { user, password: 's3cret-pass' } });
    const got = await s.gw('GET', `/gw/keys/${key}`);
    expect(got.body.basic_auth_data).toEqual({ user });
    expect(JSON.stringify(got.body)).not.toContain('s3cret-pass');
    const dup = await s.gw('POST', '/gw/keys/create', { org_id: t.orgId, access_rights: rightsFor(apiId), basic_auth_data: { user, password: 'x' } });
    expect(dup.status).toBe(409);
  });
});

describe('idempotent key create', () => {
  it('never replays the clear key (withheld, key_hash kept), and the stored reply holds neither the key nor the Idempotency-Key', async () => {
    const idem = `idem-${Date.now()}-secret-ish`;
    const body = { org_id: t.orgId, access_rights: rightsFor(apiId) };
    const first = await s.gw('POST', '/gw/keys/create', body, { 'idempotency-key': idem });
    const again = await s.gw('POST', '/gw/keys/create', body, { 'idempotency-key': idem });
    expect(first.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, key: SECRET_WITHHELD });
    expect(again.headers.get('idempotent-secrets-withheld')).toBe('key');
    expect(again.text).not.toContain(first.body.key);
    const stored = await ddb().send(
      new ScanCommand({ TableName: s.table, FilterExpression: 'entity = :e', ExpressionAttributeValues: { ':e': 'idempotency' } }),
    );
    const text = JSON.stringify(stored.Items);
    expect(stored.Items!.length).toBeGreaterThan(0);
    expect(text).not.toContain(first.body.key);
    expect(text).not.toContain(idem);
  });
});

describe('dashboard key update (PUT /api/apis/{apiID}/keys/{keyRef})', () => {
  const spendOne = (key: string) => s.gw('POST', '/gw/sessions/check', { key, api_id: apiId });

  it('resets the live quota by default and keeps it with suppress_reset=1; server-owned fields kept', async () => {
    const { key, hash } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId), quota_max: 10, quota_renewal_rate: 3600 });
    await spendOne(key);
    await spendOne(key);
    const before = await s.gw('GET', `/gw/keys/${key}`);
    expect(before.body.quota_remaining).toBe(8);

    // A longer renewal window tells a reset apart in the same second: it starts a window of 7200 s from now.
    const body = {
      ...before.body,
      quota_max: 20,
      quota_renewal_rate: 7200,
      org_id: 'someone-else',
      key_hash: 'forged',
      date_created: 'forged',
      alias: 'kept',
    };
    const suppressed = await s.dash(t.key, 'PUT', `/api/apis/${apiId}/keys/${key}?suppress_reset=1`, body);
    expect(suppressed.status).toBe(200);
    expect(suppressed.body).toMatchObject({ api_model: {}, key_id: key, key_hash: hash });
    expect(suppressed.body.data).toMatchObject({ quota_max: 20, quota_remaining: 18, org_id: t.orgId, key_hash: hash, alias: 'kept' });
    expect(suppressed.body.data.quota_renews).toBe(before.body.quota_renews);
    expect(suppressed.body.data.date_created).toBe(before.body.date_created);

    const reset = await s.dash(t.key, 'PUT', `/api/apis/${apiId}/keys/${key}`, body);
    expect(reset.status).toBe(200);
    expect(reset.body.data.quota_remaining).toBe(20);
    expect(reset.body.data.quota_renews).toBeGreaterThanOrEqual(before.body.quota_renews + 3600);
    const stored = await s.gw('GET', `/gw/keys/${key}`);
    expect(stored.body).toMatchObject({ quota_max: 20, quota_remaining: 20, org_id: t.orgId, alias: 'kept' });
  });

  it('finds the key by hash, by auto_guess and by basic-auth user name', async () => {
    const user = `dash+${Date.now()}@example.com`;
    const { key, hash } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId), basic_auth_data: { user, password: 'pw-123456' } });
    const body = { access_rights: rightsFor(apiId), basic_auth_data: { user }, alias: 'by-hash' };
    expect((await s.dash(t.key, 'PUT', `/api/apis/${apiId}/keys/${hash}?hashed=1`, body)).status).toBe(200);
    expect((await s.dash(t.key, 'PUT', `/api/apis/${apiId}/keys/${hash}?auto_guess=true`, body)).status).toBe(200);
    expect((await s.dash(t.key, 'PUT', `/api/apis/${apiId}/keys/${key}?auto_guess=true`, body)).status).toBe(200);
    const byUser = await s.dash(t.key, 'PUT', `/api/apis/${apiId}/keys/${user}?username=true`, { ...body, alias: 'by-user' });
    expect(byUser.status).toBe(200);
    expect(byUser.body.key_hash).toBe(hash);
    expect((await s.gw('GET', `/gw/keys/${key}`)).body.alias).toBe('by-user');
  });

  it('hashed=0 and hashed=false name the key itself, not its hash', async () => {
    const { key, hash } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId) });
    const body = { access_rights: rightsFor(apiId), alias: 'not-hashed' };
    for (const q of ['hashed=0', 'hashed=false', 'hashed=FALSE']) {
      const r = await s.dash(t.key, 'PUT', `/api/apis/${apiId}/keys/${key}?${q}`, body);
      expect(r.status, q).toBe(200);
      expect(r.body.key_hash).toBe(hash);
      expect((await s.dash(t.key, 'PUT', `/api/apis/${apiId}/keys/${hash}?${q}`, body)).status, q).toBe(404);
    }
    // Any other non-empty value still means the hash (contract §6).
    expect((await s.dash(t.key, 'PUT', `/api/apis/${apiId}/keys/${hash}?hashed=yes`, body)).status).toBe(200);
  });

  it('answers 404 when the key does not grant the API, for another organisation, and for unknown ids; takes If-Match', async () => {
    const otherApi = await makeApi(s, t.orgId, 'other');
    const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId) });
    const body = { access_rights: rightsFor(apiId), alias: 'x' };
    expect((await s.dash(t.key, 'PUT', `/api/apis/${otherApi}/keys/${key}`, body)).status).toBe(404);
    expect((await s.dash(t.key, 'PUT', `/api/apis/no-such-api/keys/${key}`, body)).status).toBe(404);
    expect((await s.dash(t.key, 'PUT', `/api/apis/${apiId}/keys/no-such-key`, body)).status).toBe(404);
    const b = await s.tenant();
    const other = await s.dash(b.key, 'PUT', `/api/apis/${apiId}/keys/${key}`, body);
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ Status: 'Error' });
    const got = await s.gw('GET', `/gw/keys/${key}`);
    const etag = got.headers.get('etag')!;
    expect((await s.dash(t.key, 'PUT', `/api/apis/${apiId}/keys/${key}`, body, { 'if-match': etag })).status).toBe(200);
    expect((await s.gw('GET', `/gw/keys/${key}`)).body.alias).toBe('x');
  });

  it('accepts the API by its database id', async () => {
    const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId) });
    const dbId = (await s.gw('GET', `/gw/apis/${apiId}`)).body.id;
    expect(dbId).toMatch(/^[0-9a-f]{24}$/);
    const r = await s.dash(t.key, 'PUT', `/api/apis/${dbId}/keys/${key}`, { access_rights: rightsFor(apiId), alias: 'db' });
    expect(r.status).toBe(200);
  });
});

describe("the dashboard key update names only its own organisation's APIs and policies", () => {
  /** Organisation A with an API, a policy granting it and a key; B with its own API, key and policy. */
  async function twoOrgs() {
    const a = await s.tenant();
    const b = await s.tenant();
    const aApi = await makeApi(s, a.orgId, 'a');
    const bApi = await makeApi(s, b.orgId, 'b');
    const aPolicy = `pol-a-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    expect((await s.gw('POST', '/gw/policies', { id: aPolicy, org_id: a.orgId, access_rights: rightsFor(aApi) })).status).toBe(200);
    const bKey = await makeKey(s, { org_id: b.orgId, access_rights: rightsFor(bApi), alias: 'b' });
    return { a, b, aApi, bApi, aPolicy, bKey };
  }
  const check = (key: string, api: string) => s.gw('POST', '/gw/sessions/check', { key, api_id: api, path: '/x', method: 'GET' });

  it("B's key cannot be given A's API or A's policy: 422, and B's check on A's API stays 403", async () => {
    const { b, aApi, bApi, aPolicy, bKey } = await twoOrgs();
    expect((await check(bKey.key, aApi)).status).toBe(403);
    const put = (body: Record<string, unknown>) => s.dash(b.key, 'PUT', `/api/apis/${bApi}/keys/${bKey.key}`, body);
    const tries = [
      { access_rights: rightsFor(bApi, aApi) },
      { access_rights: rightsFor(bApi), apply_policies: [aPolicy] },
      { access_rights: rightsFor(bApi), apply_policy_id: aPolicy },
    ];
    for (const body of tries) {
      const r = await put(body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body).toMatchObject({ Status: 'Error', Meta: null });
      const denied = await check(bKey.key, aApi);
      expect(denied.status).toBe(403);
      expect(denied.body).toMatchObject({ allowed: false, reason: 'AccessDenied' });
    }
    expect((await s.gw('GET', `/gw/keys/${bKey.key}`)).body).toMatchObject({ alias: 'b', access_rights: rightsFor(bApi) });
    expect((await check(bKey.key, bApi)).status).toBe(200);
  });

  it("answers A's real ids exactly as ids that exist nowhere", async () => {
    const { b, aApi, bApi, aPolicy, bKey } = await twoOrgs();
    const put = (body: Record<string, unknown>) => s.dash(b.key, 'PUT', `/api/apis/${bApi}/keys/${bKey.key}`, body);
    const apiBody = { access_rights: rightsFor(bApi, aApi) };
    const policyBody = { access_rights: rightsFor(bApi), apply_policies: [aPolicy] };
    const [apiWhileThere, policyWhileThere] = [await put(apiBody), await put(policyBody)];
    // The same ids once A's objects are gone: the whole answers are byte for byte the same.
    expect((await s.gw('DELETE', `/gw/apis/${aApi}`)).status).toBe(200);
    expect((await s.gw('DELETE', `/gw/policies/${aPolicy}`)).status).toBe(200);
    const [apiGone, policyGone] = [await put(apiBody), await put(policyBody)];
    expect(apiWhileThere.status).toBe(422);
    expect(policyWhileThere.status).toBe(422);
    expect(JSON.stringify(apiGone.body)).toBe(JSON.stringify(apiWhileThere.body));
    expect(JSON.stringify(policyGone.body)).toBe(JSON.stringify(policyWhileThere.body));
    expect(apiWhileThere.body.Message).toBe(`unknown API: ${aApi}`);
    expect(policyWhileThere.body.Message).toBe(`unknown policy: ${aPolicy}`);
  });

  it("applies B's own policies; a policy without an organisation only through the gateway", async () => {
    const { b, bApi, bKey } = await twoOrgs();
    const own = `pol-b-${Date.now()}`;
    const orphan = `pol-none-${Date.now()}`;
    expect(
      (await s.gw('POST', '/gw/policies', { id: own, org_id: b.orgId, access_rights: rightsFor(bApi), quota_max: 5, quota_renewal_rate: 3600 })).status,
    ).toBe(200);
    expect((await s.gw('POST', '/gw/policies', { id: orphan, access_rights: rightsFor(bApi) })).status).toBe(200);
    const put = (body: Record<string, unknown>) => s.dash(b.key, 'PUT', `/api/apis/${bApi}/keys/${bKey.key}`, body);
    const mine = await put({ apply_policies: [own] });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.data).toMatchObject({ apply_policies: [own], quota_remaining: 5 });
    expect((await check(bKey.key, bApi)).body).toMatchObject({ allowed: true, quota_remaining: 4 });
    const none = await put({ apply_policies: [orphan] });
    expect(none.status).toBe(422);
    expect(none.body.Message).toBe(`unknown policy: ${orphan}`);
    // The gateway is trusted like the gateway itself: its key creates may apply any policy.
    expect((await s.gw('POST', '/gw/keys/create', { org_id: b.orgId, apply_policies: [orphan] })).status).toBe(200);
  });
});

describe('basic-auth user names are per organisation', () => {
  it('two organisations may each have the name; each finds its own key by it; a taken name is 409 only within one', async () => {
    const a = await s.tenant();
    const b = await s.tenant();
    const [aApi, bApi] = [await makeApi(s, a.orgId, 'a'), await makeApi(s, b.orgId, 'b')];
    const user = `shared+${Date.now()}@example.com`;
    const aKey = await makeKey(s, { org_id: a.orgId, access_rights: rightsFor(aApi), basic_auth_data: { user, password: 'pw-aaaaaa' }, alias: 'a' });
    const bKey = await makeKey(s, { org_id: b.orgId, access_rights: rightsFor(bApi), basic_auth_data: { user, password: 'pw-bbbbbb' }, alias: 'b' });
    expect(bKey.hash).not.toBe(aKey.hash);
    const again = await s.gw('POST', '/gw/keys/create', { org_id: b.orgId, access_rights: rightsFor(bApi), basic_auth_data: { user, password: 'x' } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`basic-auth user ${user} already has a key in this organisation`);
    // username=true resolves inside the caller's organisation.
    const byName = await s.dash(b.key, 'PUT', `/api/apis/${bApi}/keys/${encodeURIComponent(user)}?username=true`, {
      access_rights: rightsFor(bApi),
      basic_auth_data: { user },
      alias: 'b2',
    });
    expect(byName.status, JSON.stringify(byName.body)).toBe(200);
    expect(byName.body.key_hash).toBe(bKey.hash);
    expect((await s.gw('GET', `/gw/keys/${aKey.key}`)).body.alias).toBe('a');
    // Freeing the name in B leaves A's key holding it in A.
    expect((await s.gw('DELETE', `/gw/keys/${bKey.key}`)).status).toBe(200);
    const gone = await s.dash(b.key, 'PUT', `/api/apis/${bApi}/keys/${encodeURIComponent(user)}?username=true`, { access_rights: rightsFor(bApi) });
    expect(gone.status).toBe(404);
    const aByName = await s.dash(a.key, 'PUT', `/api/apis/${aApi}/keys/${encodeURIComponent(user)}?username=true`, {
      access_rights: rightsFor(aApi),
      basic_auth_data: { user },
      alias: 'a2',
    });
    expect(aByName.body.key_hash).toBe(aKey.hash);
  });
});

describe('organisation keys', () => {
  it('admin creates a key for an existing organisation (422 for an unknown one)', async () => {
    const r = await s.admin('POST', '/admin/org/keys', { org_id: t.orgId, access_rights: rightsFor(apiId), alias: 'admin-made' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ api_model: {}, key_hash: sha256(r.body.key_id), data: { org_id: t.orgId, alias: 'admin-made' } });
    expect((await s.gw('GET', `/gw/keys/${r.body.key_id}`)).body.alias).toBe('admin-made');
    const unknown = await s.admin('POST', '/admin/org/keys', { org_id: 'no-such-org', access_rights: rightsFor(apiId) });
    expect(unknown.status).toBe(422);
    expect(unknown.body.Status).toBe('Error');
    expect((await s.admin('POST', '/admin/org/keys', { access_rights: rightsFor(apiId) })).status).toBe(400);
  });

  it('sets the organisation session (404 for an unknown organisation); reset_quota=1 resets the live counter', async () => {
    const org = await s.tenant();
    const api = await makeApi(s, org.orgId);
    expect((await s.gw('PUT', '/gw/org/keys/no-such-org', { quota_max: 3 })).status).toBe(404);
    const put = await s.gw('PUT', `/gw/org/keys/${org.orgId}`, { quota_max: 3, quota_renewal_rate: 3600 });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ key: org.orgId, action: 'modified' });
    const { key } = await makeKey(s, { org_id: org.orgId, access_rights: rightsFor(api) });
    const check = () => s.gw('POST', '/gw/sessions/check', { key, api_id: api });
    for (let i = 0; i < 3; i++) expect((await check()).status).toBe(200);
    expect((await check()).body.reason).toBe('QuotaExceeded');
    // An update without reset_quota keeps the spent counter...
    expect((await s.gw('PUT', `/gw/org/keys/${org.orgId}`, { quota_max: 3, quota_renewal_rate: 3600 })).status).toBe(200);
    expect((await check()).status).toBe(429);
    // ...reset_quota=1 starts it again.
    expect((await s.gw('PUT', `/gw/org/keys/${org.orgId}?reset_quota=1`, { quota_max: 3, quota_renewal_rate: 3600 })).status).toBe(200);
    expect((await check()).status).toBe(200);
  });
});

describe('key reads and write answers show the session the check enforces (contract §6)', () => {
  const newPolicy = async (body: Record<string, unknown>) => {
    const id = uid('pol');
    const r = await s.gw('POST', '/gw/policies', { id, org_id: t.orgId, ...body });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return id;
  };
  const read = async (key: string) => (await s.gw('GET', `/gw/keys/${key}`)).body;
  const storedSession = async (hash: string) => (await ddb().send(new GetCommand({ TableName: s.table, Key: { PK: `KEY#${hash}`, SK: 'KEY' } }))).Item!.session;
  const limitsOf = (k: Record<string, unknown>) => [k.rate, k.per, k.quota_max];

  it("a policy's rate, per and quota show in GET /gw/keys/{keyRef}, quota_remaining counts against them, and the key keeps its own", async () => {
    const policy = await newPolicy({ access_rights: rightsFor(apiId), rate: 50, per: 10, quota_max: 77, quota_renewal_rate: 3600 });
    const { key, hash } = await makeKey(s, { org_id: t.orgId, apply_policies: [policy], rate: 1, per: 1, quota_max: 1 });
    const got = await read(key);
    expect(limitsOf(got)).toEqual([50, 10, 77]);
    expect(got).toMatchObject({ quota_remaining: 77, apply_policies: [policy], access_rights: rightsFor(apiId) });
    expect(got.quota_renews).toBeGreaterThan(Date.now() / 1000 + 3500);
    expect((await s.gw('POST', '/gw/sessions/check', { key, api_id: apiId })).body).toMatchObject({ allowed: true, quota_remaining: 76 });
    expect((await read(key)).quota_remaining).toBe(76);
    // What the key was given is what is stored, so a policy change still reaches it.
    expect(limitsOf(await storedSession(hash))).toEqual([1, 1, 1]);
  });

  it('a quota-only policy shows its quota and leaves the rights and rate of the key', async () => {
    const policy = await newPolicy({
      partitions: { quota: true, rate_limit: false, acl: false, complexity: false, per_api: false },
      access_rights: rightsFor('granted-by-nobody'),
      rate: 500,
      per: 1,
      quota_max: 9,
      quota_renewal_rate: 60,
    });
    const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId), apply_policies: [policy], rate: 2, per: 1, quota_max: 1000 });
    const got = await read(key);
    expect(got).toMatchObject({ quota_max: 9, quota_renewal_rate: 60, quota_remaining: 9, rate: 2, per: 1 });
    expect(got.access_rights).toEqual(rightsFor(apiId));
  });

  it('two policies show the union of their access rights and the higher limits', async () => {
    const other = await makeApi(s, t.orgId, 'union');
    const p1 = await newPolicy({ access_rights: rightsFor(apiId), quota_max: 5, quota_renewal_rate: 3600, rate: 10, per: 1 });
    const p2 = await newPolicy({ access_rights: rightsFor(other), quota_max: 50, quota_renewal_rate: 3600, rate: 1, per: 1 });
    const { key } = await makeKey(s, { org_id: t.orgId, apply_policies: [p1, p2] });
    const got = await read(key);
    expect(Object.keys(got.access_rights).sort()).toEqual([apiId, other].sort());
    expect(got).toMatchObject({ quota_max: 50, quota_remaining: 50, rate: 10, per: 1, apply_policies: [p1, p2] });
    for (const api of [apiId, other]) expect((await s.gw('POST', '/gw/sessions/check', { key, api_id: api })).status, api).toBe(200);
  });

  it('a read follows a policy changed or deleted after the key was written', async () => {
    const body = { access_rights: rightsFor(apiId), quota_max: 7, quota_renewal_rate: 3600 };
    const policy = await newPolicy(body);
    const { key } = await makeKey(s, { org_id: t.orgId, apply_policies: [policy], quota_max: 3, quota_renewal_rate: 3600 });
    expect((await read(key)).quota_max).toBe(7);
    expect((await s.gw('PUT', `/gw/policies/${policy}`, { id: policy, org_id: t.orgId, ...body, quota_max: 70 })).status).toBe(200);
    expect(await read(key)).toMatchObject({ quota_max: 70, quota_remaining: 70 });
    // Without the policy the key's own values govern again, reads and check alike.
    expect((await s.gw('DELETE', `/gw/policies/${policy}`)).status).toBe(200);
    expect(await read(key)).toMatchObject({ quota_max: 3, quota_remaining: 3, apply_policies: [policy] });
  });

  it("the admin create's data and the dashboard update's data show the effective session too", async () => {
    const policy = await newPolicy({ access_rights: rightsFor(apiId), rate: 50, per: 10, quota_max: 77, quota_renewal_rate: 3600 });
    const created = await s.admin('POST', '/admin/org/keys', { org_id: t.orgId, apply_policies: [policy], rate: 1, per: 1, quota_max: 1 });
    expect(created.status).toBe(200);
    expect(limitsOf(created.body.data)).toEqual([50, 10, 77]);
    expect(created.body.data).toMatchObject({ quota_remaining: 77, access_rights: rightsFor(apiId) });
    expect(created.body.data.quota_renews).toBeGreaterThan(Date.now() / 1000 + 3500);

    const updated = await s.dash(t.key, 'PUT', `/api/apis/${apiId}/keys/${created.body.key_id}`, {
      apply_policies: [policy],
      rate: 2,
      per: 2,
      quota_max: 2,
      alias: 'u',
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(limitsOf(updated.body.data)).toEqual([50, 10, 77]);
    expect(updated.body.data).toMatchObject({ quota_remaining: 77, alias: 'u', access_rights: rightsFor(apiId) });
    expect(limitsOf(await storedSession(created.body.key_hash))).toEqual([2, 2, 2]);
    expect(await read(created.body.key_id)).toEqual(updated.body.data);
  });
});
