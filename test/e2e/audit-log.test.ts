/**
 * Contract §12, the audit trail, through the local stage and its change feed: every change of
 * each kind of configuration object, made through its routes, becomes exactly one entry naming
 * who made it (from the stamp its write carried, or a delete's deletion record) and the change
 * as an RFC 6902 patch that turns the object before into the object after (applied here); a
 * record handed over twice makes one entry; no entry shows a credential; the lists are scoped to
 * the caller's organisation and need the `audit` permission group; the request path writes what
 * it wrote before, its items stamped, and no entry.
 */
import { createHash } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import fastJsonPatch from 'fast-json-patch';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as auditConsumer } from '../../functions/audit/change-feed';
import { currentRequest } from '../../shared/request-context';
import { ddb } from '../../shared/store/db/client';
import { assetData, makeApi, makeKey, oasDoc, rightsFor, STREAMS_TYPE, streamsDoc, uid } from '../support/fixtures';
import { onEmulator } from '../support/stage';
import { useStage, useTenants } from '../support/file-stage';

const { applyPatch } = fastJsonPatch;
type Json = Record<string, any>;

const s = useStage({ changeFeed: true });
const [t] = useTenants(s, 1);
/** Every clear credential this file handed to or got from the stage: no entry may hold one. */
const secrets: string[] = [];
beforeAll(async () => {
  secrets.push(t.key, sha(t.key));
});

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const USER = () => ({ type: 'user', id: t.userId, email: `owner@${t.orgId}.example` });

/** Every entry of one object (oldest first), once the change feed has audited every change so far. */
async function entriesOf(type: string, id: string): Promise<Json[]> {
  await s.caughtUp();
  const r = await s.admin('GET', `/admin/audit-log?object_type=${type}&object_id=${encodeURIComponent(id)}&p=-1`);
  expect(r.status).toBe(200);
  return (r.body.entries as Json[]).slice().reverse();
}

/**
 * The object's life as its entries tell it: each patch applied to what came before (its tests of
 * the old values must hold), from {} after the create to {} after a delete. Answers each state.
 */
function replay(entries: Json[]): Json[] {
  const states: Json[] = [];
  let state: Json = {};
  for (const e of entries) {
    state = applyPatch(structuredClone(state), e.changes, true, false).newDocument as Json;
    states.push(state);
  }
  return states;
}

/** One entry per change, in order, with the actor of each, and the states the patches lead to. */
async function life(type: string, id: string, expected: Array<{ action: string; actor: Json }>): Promise<Json[]> {
  // Exactly these: the feed has read everything there was, so nothing else can arrive later.
  const settled = await entriesOf(type, id);
  expect(settled.map((e) => ({ action: e.action, actor: e.actor }))).toEqual(expected);
  for (const e of settled) expect(e).toMatchObject({ object: { type, id }, request_id: expect.any(String), at: expect.any(String) });
  const states = replay(settled);
  if (expected.at(-1)!.action === 'delete') expect(states.at(-1)).toEqual({});
  return states;
}

describe.skipIf(onEmulator)('every change of a configuration object is one entry, with its actor and its patch', () => {
  it('organisations and users (admin)', async () => {
    const orgId = uid('audit-org');
    expect((await s.admin('POST', '/admin/organisations', { id: orgId, owner_name: 'Owner' })).status).toBe(200);
    const [org] = await life('organisation', orgId, [{ action: 'create', actor: { type: 'admin' } }]);
    expect(org).toMatchObject({ id: orgId, owner_name: 'Owner' });

    const password = 'correct horse battery staple';
    const made = await s.admin('POST', '/admin/users', { org_id: orgId, email_address: 'a@audit.example', first_name: 'A', password });
    expect(made.status).toBe(200);
    secrets.push(password, made.body.Meta.access_key, sha(made.body.Meta.access_key));
    const id = made.body.Meta.id as string;
    expect(
      (await s.admin('PUT', `/admin/users/${id}`, { email_address: 'b@audit.example', first_name: 'B', password: 'another secret phrase', active: true }))
        .status,
    ).toBe(200);
    secrets.push('another secret phrase');
    const rotated = await s.admin('POST', `/admin/users/${id}/access-key`);
    expect(rotated.status).toBe(200);
    secrets.push(rotated.body.Meta.access_key, sha(rotated.body.Meta.access_key));
    const [created, updated] = await life('user', id, [
      { action: 'create', actor: { type: 'admin' } },
      { action: 'update', actor: { type: 'admin' } },
      { action: 'update', actor: { type: 'admin' } },
    ]);
    expect(created).toMatchObject({ id, org_id: orgId, email_address: 'a@audit.example', first_name: 'A', password_hash: '********' });
    expect(updated).toMatchObject({ email_address: 'b@audit.example', first_name: 'B' });
  });

  it('API definitions (gateway create, dashboard streams patch, gateway delete)', async () => {
    const apiId = uid('audit-api');
    expect((await s.gw('POST', '/gw/apis/oas', oasDoc(apiId, t.orgId, { title: 'First' }))).status).toBe(200);
    const patched = await s.call('PATCH', `/api/apis/streams/${apiId}`, {
      headers: { authorization: `Bearer ${t.key}`, 'content-type': STREAMS_TYPE },
      body: JSON.stringify(streamsDoc(apiId)),
    });
    expect(patched.status).toBe(200);
    expect((await s.gw('DELETE', `/gw/apis/${apiId}`)).status).toBe(200);
    const [created, updated] = await life('api', apiId, [
      { action: 'create', actor: { type: 'gateway' } },
      { action: 'update', actor: USER() },
      { action: 'delete', actor: { type: 'gateway' } },
    ]);
    expect(created).toMatchObject({ api_id: apiId, org_id: t.orgId, name: 'First', definition: { oas: { info: { title: 'First' } } } });
    expect(updated!.definition.oas['x-gw-streaming']).toEqual(streamsDoc(apiId)['x-gw-streaming']);
  });

  it('keys, by their hash (gateway create, dashboard update, gateway delete)', async () => {
    const apiId = await makeApi(s, t.orgId, 'audit-key-api');
    const body = { org_id: t.orgId, access_rights: rightsFor(apiId), quota_max: 5, basic_auth_data: { password: 'basic-auth-password' } };
    const { key, hash } = await makeKey(s, body);
    secrets.push(key, 'basic-auth-password');
    expect((await s.dash(t.key, 'PUT', `/api/apis/${apiId}/keys/${key}`, { ...body, quota_max: 9 })).status).toBe(200);
    expect((await s.gw('DELETE', `/gw/keys/${key}`)).status).toBe(200);
    const [created, updated] = await life('key', hash, [
      { action: 'create', actor: { type: 'gateway' } },
      { action: 'update', actor: USER() },
      { action: 'delete', actor: { type: 'gateway' } },
    ]);
    expect(created).toMatchObject({ session: { key_hash: hash, quota_max: 5 } });
    expect(updated).toMatchObject({ session: { key_hash: hash, quota_max: 9 } });
  });

  it('policies and organisation keys (gateway)', async () => {
    const apiId = await makeApi(s, t.orgId, 'audit-policy-api');
    const id = uid('audit-policy');
    expect((await s.gw('POST', '/gw/policies', { id, name: 'P1', org_id: t.orgId, access_rights: rightsFor(apiId) })).status).toBe(200);
    expect((await s.gw('PUT', `/gw/policies/${id}`, { id, name: 'P2', org_id: t.orgId, access_rights: rightsFor(apiId) })).status).toBe(200);
    expect((await s.gw('DELETE', `/gw/policies/${id}`)).status).toBe(200);
    const [p1, p2] = await life('policy', id, [
      { action: 'create', actor: { type: 'gateway' } },
      { action: 'update', actor: { type: 'gateway' } },
      { action: 'delete', actor: { type: 'gateway' } },
    ]);
    expect([p1!.name, p2!.name]).toEqual(['P1', 'P2']);

    expect((await s.gw('PUT', `/gw/org/keys/${t.orgId}`, { quota_max: 100 })).status).toBe(200);
    expect((await s.gw('PUT', `/gw/org/keys/${t.orgId}`, { quota_max: 200 })).status).toBe(200);
    const [o1, o2] = await life('org_key', t.orgId, [
      { action: 'create', actor: { type: 'gateway' } },
      { action: 'update', actor: { type: 'gateway' } },
    ]);
    expect([o1!.session.quota_max, o2!.session.quota_max]).toEqual([100, 200]);
  });

  it('webhooks (dashboard), their signing secrets and credential headers never shown', async () => {
    const headers = { Authorization: 'Bearer hook-header-credential', 'x-plain': 'plain-value' };
    const made = await s.dash(t.key, 'POST', '/api/hooks', { name: 'H1', method: 'POST', target_path: 'https://hooks.example/a', header_map: headers });
    expect(made.status).toBe(200);
    const id = made.body.Meta as string;
    secrets.push(made.body.signing_secret, 'hook-header-credential');
    expect(
      (await s.dash(t.key, 'PUT', `/api/hooks/${id}`, { name: 'H2', method: 'PUT', target_path: 'https://hooks.example/b', header_map: headers })).status,
    ).toBe(200);
    const rotated = await s.dash(t.key, 'POST', `/api/hooks/${id}/signing-secret`);
    expect(rotated.status).toBe(200);
    secrets.push(rotated.body.signing_secret);
    expect((await s.dash(t.key, 'DELETE', `/api/hooks/${id}`)).status).toBe(200);
    const [h1, h2] = await life('webhook', id, [
      { action: 'create', actor: USER() },
      { action: 'update', actor: USER() },
      { action: 'update', actor: USER() },
      { action: 'delete', actor: USER() },
    ]);
    expect(h1).toMatchObject({ name: 'H1', method: 'POST', header_map: { Authorization: '********', 'x-plain': '********' } });
    expect(h2).toMatchObject({ name: 'H2', method: 'PUT', target_path: 'https://hooks.example/b' });
  });

  it('templates (dashboard)', async () => {
    const made = await s.dash(t.key, 'POST', '/api/assets', { name: 'T1', kind: 'oas-template', data: assetData('T1') });
    expect(made.status).toBe(200);
    const id = made.body.Meta as string;
    expect((await s.dash(t.key, 'PUT', `/api/assets/${id}`, { name: 'T2', kind: 'oas-template', data: assetData('T2') })).status).toBe(200);
    expect((await s.dash(t.key, 'DELETE', `/api/assets/${id}`)).status).toBe(200);
    const [t1, t2] = await life('template', id, [
      { action: 'create', actor: USER() },
      { action: 'update', actor: USER() },
      { action: 'delete', actor: USER() },
    ]);
    expect([t1!.data.info.title, t2!.data.info.title]).toEqual(['T1', 'T2']);
  });

  it('OAuth clients, without secrets (gateway)', async () => {
    const apiId = await makeApi(s, t.orgId, 'audit-oauth-api');
    const made = await s.gw('POST', '/gw/oauth/clients/create', { api_id: apiId, redirect_uri: 'https://a.example/cb', description: 'd1' });
    expect(made.status).toBe(200);
    const id = made.body.client_id as string;
    secrets.push(made.body.secret, sha(made.body.secret));
    expect((await s.gw('PUT', `/gw/oauth/clients/${apiId}/${id}`, { redirect_uri: 'https://b.example/cb', description: 'd2' })).status).toBe(200);
    expect((await s.gw('DELETE', `/gw/oauth/clients/${apiId}/${id}`)).status).toBe(200);
    const [c1, c2] = await life('oauth_client', id, [
      { action: 'create', actor: { type: 'gateway' } },
      { action: 'update', actor: { type: 'gateway' } },
      { action: 'delete', actor: { type: 'gateway' } },
    ]);
    expect([c1!.redirect_uri, c2!.redirect_uri, c1!.secret_hash]).toEqual(['https://a.example/cb', 'https://b.example/cb', '********']);
  });
});

describe.skipIf(onEmulator)('what a reader with only audit: read sees (the table of credential-bearing members)', () => {
  const M = '********';
  const reader = async (permissions: Record<string, string>) => {
    const made = await s.admin('POST', '/admin/users', { org_id: t.orgId, email_address: `${uid('reader')}@x.example`, user_permissions: permissions });
    expect(made.status).toBe(200);
    secrets.push(made.body.Meta.access_key);
    return made.body.Meta.access_key as string;
  };
  const readAs = async (key: string, query: string) => {
    const r = await s.dash(key, 'GET', `/api/audit-log?${query}&p=-1`);
    expect(r.status).toBe(200);
    return (r.body.entries as Json[]).slice().reverse();
  };

  it('an OAS API: no header value of transformRequestHeaders.add (global, per operation), no upstream userinfo; a new secret is a masked change', async () => {
    const apiId = uid('audit-creds');
    const gateway = (bearer: string) => ({
      server: { listenPath: { value: `/${apiId}/`, strip: true } },
      upstream: { url: 'https://u:p@up.example' },
      middleware: {
        global: {
          transformRequestHeaders: {
            enabled: true,
            add: [
              { name: 'Authorization', value: bearer },
              { name: 'X-Team', value: 'ops' },
            ],
          },
        },
        operations: { getThing: { transformRequestHeaders: { enabled: true, add: [{ name: 'X-Api-Key', value: 'op-s3cret' }] } } },
      },
    });
    const doc = (bearer: string) => ({
      ...oasDoc(apiId, t.orgId, { gateway: gateway(bearer) }),
      paths: { '/thing': { get: { operationId: 'getThing', responses: { '200': { description: 'ok' } } } } },
    });
    expect((await s.gw('POST', '/gw/apis/oas', doc('Bearer s3cret'))).status).toBe(200);
    // Only the secret changes.
    const updated = await s.gw('PUT', `/gw/apis/oas/${apiId}`, doc('Bearer s3cret-rotated'));
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    secrets.push('Bearer s3cret', 's3cret-rotated', 'op-s3cret', 'u:p@');
    await life('api', apiId, [
      { action: 'create', actor: { type: 'gateway' } },
      { action: 'update', actor: { type: 'gateway' } },
    ]);
    const entries = await readAs(await reader({ audit: 'read' }), `object_id=${apiId}`);
    const text = JSON.stringify(entries);
    for (const secret of ['s3cret', 'u:p@']) expect(text).not.toContain(secret);
    const [created] = replay(entries);
    const gw = created!.definition.oas['x-gw-api-gateway'];
    expect(gw.upstream.url).toBe(`https://${M}:${M}@up.example`);
    expect(gw.middleware.global.transformRequestHeaders.add).toEqual([
      { name: 'Authorization', value: M },
      { name: 'X-Team', value: 'ops' },
    ]);
    expect(gw.middleware.operations.getThing.transformRequestHeaders.add).toEqual([{ name: 'X-Api-Key', value: M }]);
    const rotation = entries[1]!.changes.filter(
      (op: Json) => op.path === '/definition/oas/x-gw-api-gateway/middleware/global/transformRequestHeaders/add/0/value',
    );
    expect(rotation).toEqual([
      { op: 'test', path: '/definition/oas/x-gw-api-gateway/middleware/global/transformRequestHeaders/add/0/value', value: M },
      { op: 'replace', path: '/definition/oas/x-gw-api-gateway/middleware/global/transformRequestHeaders/add/0/value', value: M },
    ]);
  });

  it("a webhook's target URL credentials (userinfo, token) are masked, and a change of the token alone is a masked change", async () => {
    const target = (token: string) => `https://hook-user:hook-pass@x.example/h?token=${token}&team=ops`;
    const made = await s.dash(t.key, 'POST', '/api/hooks', { name: 'creds', method: 'POST', target_path: target('tok-abc') });
    expect(made.status).toBe(200);
    const id = made.body.Meta as string;
    expect((await s.dash(t.key, 'PUT', `/api/hooks/${id}`, { name: 'creds', method: 'POST', target_path: target('tok-abd') })).status).toBe(200);
    secrets.push(made.body.signing_secret, 'hook-user', 'hook-pass', 'tok-abc', 'tok-abd');
    await life('webhook', id, [
      { action: 'create', actor: USER() },
      { action: 'update', actor: USER() },
    ]);
    const entries = await readAs(await reader({ audit: 'read' }), `object_id=${id}`);
    for (const secret of ['hook-user', 'hook-pass', 'tok-ab']) expect(JSON.stringify(entries)).not.toContain(secret);
    const shown = `https://${M}:${M}@x.example/h?token=${M}&team=ops`;
    expect(entries[1]!.changes.filter((op: Json) => op.path === '/target_path')).toEqual([
      { op: 'test', path: '/target_path', value: shown },
      { op: 'replace', path: '/target_path', value: shown },
    ]);
  });

  it('user entries: e-mail, names and permissions only to a reader that may read users too; the actor stays named', async () => {
    const email = `${uid('personal')}@x.example`;
    const made = await s.admin('POST', '/admin/users', { org_id: t.orgId, email_address: email, first_name: 'Private', user_permissions: { apis: 'read' } });
    expect(made.status).toBe(200);
    secrets.push(made.body.Meta.access_key);
    const id = made.body.Meta.id as string;
    const put = await s.admin('PUT', `/admin/users/${id}`, { email_address: email, first_name: 'Private', user_permissions: { apis: 'write' }, active: true });
    expect(put.status).toBe(200);
    await life('user', id, [
      { action: 'create', actor: { type: 'admin' } },
      { action: 'update', actor: { type: 'admin' } },
    ]);
    const auditOnly = await readAs(await reader({ audit: 'read' }), `object_id=${id}`);
    const text = JSON.stringify(auditOnly);
    for (const shown of [email, 'Private', '"apis"']) expect(text).not.toContain(shown);
    const [created, updated] = replay(auditOnly);
    expect(created).toMatchObject({ id, email_address: M, email_lower: M, first_name: M, user_permissions: M, access_key_hash: M });
    expect(updated).toMatchObject({ email_address: M, user_permissions: M });
    expect(auditOnly[1]!.changes).toContainEqual({ op: 'replace', path: '/user_permissions', value: M });
    const withUsers = await readAs(await reader({ audit: 'read', users: 'read' }), `object_id=${id}`);
    expect(replay(withUsers)[1]).toMatchObject({ email_address: email, first_name: 'Private', user_permissions: { apis: 'write' } });
    // Who acted is what the trail is for: the acting user's e-mail is shown to every reader.
    const byOwner = await readAs(await reader({ audit: 'read' }), 'object_type=webhook');
    expect(byOwner.some((e) => e.actor.email === `owner@${t.orgId}.example`)).toBe(true);
  });
});

describe.skipIf(onEmulator)('exactly once, scoped, permitted', () => {
  it('a record handed over twice (in one batch and again later) makes one entry', async () => {
    const id = uid('twice');
    const record = {
      eventID: uid('record'),
      eventName: 'INSERT' as const,
      dynamodb: {
        SequenceNumber: '42',
        NewImage: marshall({
          PK: `POLICY#${id}`,
          SK: 'POLICY',
          entity: 'policy',
          id,
          name: id,
          org_id: t.orgId,
          version: 1,
          audit_actor: { type: 'gateway' },
          audit_request_id: 'req-twice',
          audit_at: new Date().toISOString(),
        }) as never,
      },
    };
    const event = { Records: [record, record] } as never;
    expect(await auditConsumer(event)).toEqual({ batchItemFailures: [] });
    expect(await auditConsumer(event)).toEqual({ batchItemFailures: [] });
    const entries = await entriesOf('policy', id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'create', actor: { type: 'gateway' }, request_id: 'req-twice', org_id: t.orgId });
  });

  it("the dashboard list shows the caller's organisation only, newest first, filtered and paged", async () => {
    const other = await s.tenant();
    expect((await s.dash(t.key, 'POST', '/api/hooks', { name: 'mine', method: 'POST', target_path: 'https://hooks.example/m' })).status).toBe(200);
    const theirs = await s.dash(other.key, 'POST', '/api/hooks', { name: 'theirs', method: 'POST', target_path: 'https://hooks.example/t' });
    await s.caughtUp();
    const list = await s.dash(t.key, 'GET', '/api/audit-log?p=-1');
    expect(list.status).toBe(200);
    const entries = list.body.entries as Json[];
    expect(entries.length).toBeGreaterThan(5);
    expect(new Set(entries.map((e) => e.org_id))).toEqual(new Set([t.orgId]));
    expect(entries.map((e) => e.at)).toEqual(
      entries
        .map((e) => e.at)
        .sort()
        .reverse(),
    );
    expect(entries.some((e) => e.object.id === theirs.body.Meta)).toBe(false);
    // Another organisation's object, asked by id: nothing, exactly as for an object that never was.
    const asked = await s.dash(t.key, 'GET', `/api/audit-log?object_id=${theirs.body.Meta}`);
    expect(asked.body).toEqual({ entries: [], pages: 0 });
    // Filters: type, actor, time; pages and cursors as every list.
    const hooks = await s.dash(t.key, 'GET', `/api/audit-log?object_type=webhook&actor=${t.userId}&p=-1`);
    expect(hooks.body.entries.length).toBeGreaterThan(0);
    expect(hooks.body.entries.every((e: Json) => e.object.type === 'webhook' && e.actor.id === t.userId)).toBe(true);
    const byEmail = await s.dash(t.key, 'GET', `/api/audit-log?actor=owner@${t.orgId}.example&p=-1`);
    expect(byEmail.body.entries.length).toBe(entries.filter((e) => e.actor.type === 'user').length);
    const at = entries[2]!.at as string;
    const since = await s.dash(t.key, 'GET', `/api/audit-log?from=${at}&p=-1`);
    expect(since.body.entries.map((e: Json) => e.id)).toEqual(entries.filter((e) => e.at >= at).map((e) => e.id));
    const until = await s.dash(t.key, 'GET', `/api/audit-log?to=${at}&p=-1`);
    expect(until.body.entries.map((e: Json) => e.id)).toEqual(entries.filter((e) => e.at <= at).map((e) => e.id));
    expect((await s.dash(t.key, 'GET', `/api/audit-log?from=${at}&to=2000-01-01T00:00:00Z`)).status).toBe(400);
    // No count follows entries that expire: pages is the pages seen (this one, and one more while
    // more follow), exact on the last page (contract §5).
    const page1 = await s.dash(t.key, 'GET', '/api/audit-log?page_size=2');
    expect(page1.body.pages).toBe(2);
    const last = Math.ceil(entries.length / 2);
    const lastPage = await s.dash(t.key, 'GET', `/api/audit-log?page_size=2&p=${last}`);
    expect(lastPage.body).toMatchObject({ pages: last, entries: entries.slice(2 * (last - 1)) });
    expect(lastPage.body.next_cursor).toBeUndefined();
    expect((await s.dash(t.key, 'GET', `/api/audit-log?page_size=2&p=${last + 3}`)).body).toEqual({ entries: [], pages: last });
    const page2 = await s.dash(t.key, 'GET', `/api/audit-log?page_size=2&cursor=${encodeURIComponent(page1.body.next_cursor)}`);
    const byNumber = await s.dash(t.key, 'GET', '/api/audit-log?page_size=2&p=2');
    expect(page2.body.entries.map((e: Json) => e.id)).toEqual(entries.slice(2, 4).map((e) => e.id));
    expect(byNumber.body.entries).toEqual(page2.body.entries);
    // A cursor carries how many entries lie before it, so its page counts the same as by number.
    expect([page2.body.pages, byNumber.body.pages]).toEqual([3, 3]);
    // The admin list sees both organisations, and one with org_id.
    const all = await s.admin('GET', '/admin/audit-log?page_size=100');
    expect(all.body.entries.some((e: Json) => e.org_id === other.orgId)).toBe(true);
    const theirsOnly = await s.admin('GET', `/admin/audit-log?org_id=${other.orgId}&p=-1`);
    expect(new Set(theirsOnly.body.entries.map((e: Json) => e.org_id))).toEqual(new Set([other.orgId]));
  });

  it('a user without the audit group is refused (403); with read it may list', async () => {
    const made = await s.admin('POST', '/admin/users', {
      org_id: t.orgId,
      email_address: `${uid('no-audit')}@x.example`,
      user_permissions: { hooks: 'write' },
    });
    expect(made.status).toBe(200);
    const refused = await s.dash(made.body.Meta.access_key, 'GET', '/api/audit-log');
    expect(refused.status).toBe(403);
    expect(refused.body.Message).toMatch(/audit/);
    const reader = await s.admin('POST', '/admin/users', { org_id: t.orgId, email_address: `${uid('reader')}@x.example`, user_permissions: { audit: 'read' } });
    expect((await s.dash(reader.body.Meta.access_key, 'GET', '/api/audit-log')).status).toBe(200);
    secrets.push(made.body.Meta.access_key, reader.body.Meta.access_key);
  });
});

describe.skipIf(onEmulator)('the request path', () => {
  /**
   * The write commands requests send while `run` runs, with the items they name (the change feed
   * runs in this process too, outside any request: its writes are not the request's).
   */
  async function writesOf(run: () => Promise<unknown>): Promise<Array<{ command: string; items: Json[] }>> {
    const seen: Array<{ command: string; items: Json[] }> = [];
    const name = `audit-write-counter-${uid('w')}`;
    ddb().middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as Json;
        const command = context.commandName ?? '?';
        if (currentRequest() && /Put|Update|Delete|TransactWrite|BatchWrite/.test(command)) {
          const items = command === 'TransactWriteItemsCommand' ? input.TransactItems.map((i: Json) => Object.values(i)[0]) : [input];
          seen.push({ command, items: items.map((i: Json) => ({ key: i.Item ? `${i.Item.PK}|${i.Item.SK}` : `${i.Key?.PK}|${i.Key?.SK}`, item: i.Item })) });
        }
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      await run();
    } finally {
      ddb().middlewareStack.remove(name);
    }
    return seen;
  }

  it('writes what it wrote before, its items stamped with the actor; a delete adds its deletion record to the same write; no entry', async () => {
    const apiId = await makeApi(s, t.orgId, 'audit-writes-api');
    const id = uid('counted-policy');
    const created = await writesOf(() => s.gw('POST', '/gw/policies', { id, name: id, org_id: t.orgId, access_rights: rightsFor(apiId) }));
    // One write: the policy with its organisation's condition and count (a transaction of three), stamped.
    expect(created.map((w) => w.command)).toEqual(['TransactWriteItemsCommand']);
    const policy = created[0]!.items.find((i) => i.key === `POLICY#${id}|POLICY`)!;
    expect(policy.item).toMatchObject({ audit_actor: { type: 'gateway' }, audit_request_id: expect.any(String), audit_at: expect.any(String) });
    const removed = await writesOf(() => s.gw('DELETE', `/gw/policies/${id}`));
    expect(removed.map((w) => w.command)).toEqual(['TransactWriteItemsCommand']);
    expect(removed[0]!.items.map((i) => i.key)).toEqual([
      `POLICY#${id}|POLICY`,
      expect.stringMatching(new RegExp(`^DELETED#POLICY#${id}\\|POLICY\\|`)),
      `ORG#${t.orgId}|COUNT#POLICY`,
    ]);
    const hook = await writesOf(() => s.dash(t.key, 'POST', '/api/hooks', { name: 'counted', method: 'POST', target_path: 'https://hooks.example/c' }));
    const keys = hook.flatMap((w) => w.items.map((i) => String(i.key)));
    expect(keys.filter((k) => k.startsWith('AUDIT'))).toEqual([]);
    const stored = hook.flatMap((w) => w.items).find((i) => String(i.key).includes('#HOOK#'))!;
    expect(stored.item.audit_actor).toEqual(USER());
  });
});

describe.skipIf(onEmulator)('redaction', () => {
  it('no entry this file produced holds a password, access key, clear key, signing secret, OAuth secret or header credential', async () => {
    expect(secrets.length).toBeGreaterThan(10);
    const all = await s.admin('GET', '/admin/audit-log?p=-1');
    expect(all.status).toBe(200);
    const text = JSON.stringify(all.body.entries);
    expect(all.body.entries.length).toBeGreaterThan(20);
    for (const secret of secrets) expect(text.includes(secret), `an entry holds ${secret.slice(0, 6)}...`).toBe(false);
  });
});
