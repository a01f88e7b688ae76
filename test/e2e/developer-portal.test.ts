/**
 * The developer portal (docs/using/developer-portal.md): an organisation publishes an API with
 * plans, developers sign up under its mode and sign in with a credential of their own, request
 * keys (at once on an automatic plan, after a user's approval on a manual one), collect them once,
 * list them with live quota, roll and revoke them. Every object is the developer's own, and a
 * developer's session reaches nothing but its portal's developer routes.
 */
import { describe, expect, it, vi } from 'vitest';
import { PORTAL_LIMITS } from '../../shared/limits';
import { useStage } from '../support/file-stage';
import { oasDoc, rightsFor, uid } from '../support/fixtures';
import { scanAll } from '../support/org-items';
import { onEmulator, type Stage } from '../support/stage';

const s = useStage();

interface Portal {
  orgId: string;
  key: string;
  apiId: string;
  classicId: string;
  policyId: string;
}

/** An organisation with an OAS API, a classic one, a policy granting both (quota 3), and its portal on in `mode`. */
async function portal(mode: 'open' | 'invitation' | 'approval' = 'open'): Promise<Portal> {
  const { orgId, key } = await s.tenant(uid('portal-org'));
  const apiId = uid('portal-api');
  expect((await s.dash(key, 'POST', '/api/apis/oas', oasDoc(apiId, orgId))).status).toBe(200);
  const classicId = uid('portal-classic');
  const classic = { api_id: classicId, name: 'Classic', proxy: { listen_path: `/${classicId}/`, target_url: 'http://upstream.example' } };
  expect((await s.dash(key, 'POST', '/api/apis', { api_definition: classic })).status).toBe(200);
  const policyId = uid('gold');
  const policy = { id: policyId, name: 'Gold', access_rights: rightsFor(apiId, classicId), quota_max: 3, quota_renewal_rate: 3600, rate: 100, per: 1 };
  expect((await s.dash(key, 'POST', '/api/portal/policies', policy)).status).toBe(200);
  expect((await s.dash(key, 'PUT', '/api/portal/settings', { enabled: true, sign_up: mode, title: 'Acme APIs' })).status).toBe(200);
  const plans = [
    { id: 'free', name: 'Free', description: 'Try it', policy_id: policyId, approval: 'auto' },
    { id: 'pro', name: 'Pro', policy_id: policyId, approval: 'manual' },
  ];
  expect((await s.dash(key, 'PUT', `/api/portal/catalogue/${apiId}`, { plans })).status).toBe(200);
  return { orgId, key, apiId, classicId, policyId };
}

const PASSWORD = 'correct horse battery';

/** Signs a developer up (open portal) and in; answers its session token and id. */
async function developer(p: Portal, email = `${uid('dev')}@example.com`): Promise<{ token: string; id: string; email: string }> {
  expect((await s.call('POST', `/portal/${p.orgId}/developers`, { body: { email_address: email, password: PASSWORD } })).status).toBe(200);
  const signedIn = await s.call('POST', `/portal/${p.orgId}/sessions`, { body: { email_address: email, password: PASSWORD } });
  expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
  return { token: signedIn.body.Meta.token, id: signedIn.body.Meta.developer.id, email };
}

/**
 * Runs `work` inside one fixed sign-in window. The windows follow the clock, so attempts that
 * straddled a window's end counted in two (the test takes about 6 s of a 15-minute window: about
 * one run in 150 failed). In-process the clock starts mid-window; the emulated stage reads its own
 * clock, so there the test waits out a window about to end.
 */
async function inOneSignInWindow(work: () => Promise<void>): Promise<void> {
  const size = PORTAL_LIMITS.signInWindowSeconds * 1000;
  const start = Date.now() - (Date.now() % size);
  if (onEmulator) {
    const end = start + size;
    if (end - Date.now() < 60_000) {
      // Polled to the window's end: the emulated stage's clock is this machine's.
      while (Date.now() <= end) {
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    return work();
  }
  vi.useFakeTimers({ toFake: ['Date'], now: start + size / 2, shouldAdvanceTime: true });
  try {
    await work();
  } finally {
    vi.useRealTimers();
  }
}

const as = (token: string) => ({ authorization: `Bearer ${token}` });
const dev = (token: string, method: string, path: string, body?: unknown) => s.call(method, path, { headers: as(token), body });
const check = (st: Stage, key: string, apiId: string) => st.gw('POST', '/gw/sessions/check', { key, api_id: apiId, path: '/x', method: 'GET' });

describe('the portal as its users set it up', () => {
  it('is off until set: settings read as off, and every public route answers 404 as for an organisation without one', async () => {
    const { orgId, key } = await s.tenant(uid('portal-off'));
    expect((await s.dash(key, 'GET', '/api/portal/settings')).body).toEqual({ enabled: false, sign_up: 'approval', org_id: orgId });
    expect((await s.call('GET', `/portal/${orgId}/catalogue`)).status).toBe(404);
    const none = await s.call('GET', `/portal/${uid('nobody')}/catalogue`);
    expect(none.status).toBe(404);
    expect((await s.call('GET', `/portal/${orgId}/catalogue`)).body).toEqual(none.body);
    expect((await s.call('POST', `/portal/${orgId}/developers`, { body: { email_address: 'a@example.com', password: PASSWORD } })).status).toBe(404);
  });

  it('publishes only its own APIs with its own policies that grant them, and shows plans without their policy', async () => {
    const p = await portal();
    const other = await portal();
    const plans = (policy_id: string) => [{ id: 'x', name: 'X', policy_id, approval: 'auto' }];
    expect((await s.dash(p.key, 'PUT', `/api/portal/catalogue/${other.apiId}`, { plans: plans(p.policyId) })).status).toBe(404);
    expect((await s.dash(p.key, 'PUT', `/api/portal/catalogue/${p.classicId}`, { plans: plans(other.policyId) })).status).toBe(422);
    const narrow = uid('narrow');
    await s.dash(p.key, 'POST', '/api/portal/policies', { id: narrow, name: 'N', access_rights: rightsFor(p.apiId) });
    const blind = await s.dash(p.key, 'PUT', `/api/portal/catalogue/${p.classicId}`, { plans: plans(narrow) });
    expect(blind.status).toBe(422);
    expect(blind.body.Message).toContain('does not grant');
    const twice = await s.dash(p.key, 'PUT', `/api/portal/catalogue/${p.classicId}`, { plans: [...plans(p.policyId), ...plans(p.policyId)] });
    expect(twice.status).toBe(400);
    expect((await s.dash(p.key, 'PUT', `/api/portal/catalogue/${p.classicId}`, { description: 'Old', plans: plans(p.policyId) })).status).toBe(200);

    expect((await s.dash(p.key, 'GET', '/api/portal/catalogue')).body.apis.map((e: { api_id: string }) => e.api_id).sort()).toEqual(
      [p.apiId, p.classicId].sort(),
    );
    const pub = await s.call('GET', `/portal/${p.orgId}/catalogue`);
    expect(pub.status).toBe(200);
    expect(pub.body.title).toBe('Acme APIs');
    const entry = pub.body.apis.find((e: { api_id: string }) => e.api_id === p.apiId);
    expect(entry.kind).toBe('oas');
    expect(entry.plans[0]).toEqual({
      id: 'free',
      name: 'Free',
      description: 'Try it',
      approval: 'auto',
      quota_max: 3,
      quota_renewal_rate: 3600,
      rate: 100,
      per: 1,
    });
    expect(JSON.stringify(pub.body)).not.toContain(p.policyId);

    const doc = await s.call('GET', `/portal/${p.orgId}/catalogue/${p.apiId}/openapi`);
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBeDefined();
    expect(doc.body['x-gw-api-gateway']).toBeUndefined();
    const classicDoc = await s.call('GET', `/portal/${p.orgId}/catalogue/${p.classicId}/openapi`);
    expect(classicDoc.body).toMatchObject({ openapi: '3.0.3', info: { title: 'Classic', description: 'Old' }, servers: [{ url: `/${p.classicId}/` }] });
    // Another organisation's API through this portal's path is not published here.
    expect((await s.call('GET', `/portal/${p.orgId}/catalogue/${other.apiId}/openapi`)).status).toBe(404);

    expect((await s.dash(p.key, 'DELETE', `/api/portal/catalogue/${p.classicId}`)).status).toBe(200);
    expect((await s.dash(p.key, 'DELETE', `/api/portal/catalogue/${p.classicId}`)).status).toBe(404);
    expect((await s.call('GET', `/portal/${p.orgId}/catalogue/${p.classicId}/openapi`)).status).toBe(404);
  });

  // In one process a change of standing is seen at once; across processes (the emulator) within CACHE_SECONDS. Each route is
  // called once after its own change of standing, so each reads it afresh (the write forgets this process's copy).
  it.skipIf(onEmulator)(
    "a suspended organisation's portal answers 404 on every public and developer route but sign-out; restored, it answers again",
    async () => {
      const p = await portal();
      const d = await developer(p);
      const { key_hash } = (await dev(d.token, 'POST', `/portal/${p.orgId}/key-requests`, { api_id: p.apiId, plan_id: 'free' })).body.Meta;
      const standing = async (active: boolean) =>
        expect((await s.admin('PUT', `/admin/organisations/${p.orgId}`, { owner_name: p.orgId, active })).status).toBe(200);
      const portalPath = `/portal/${p.orgId}`;
      const calls: Array<[string, () => Promise<{ status: number }>]> = [
        ['catalogue', () => s.call('GET', `${portalPath}/catalogue`)],
        ['document', () => s.call('GET', `${portalPath}/catalogue/${p.apiId}/openapi`)],
        ['sign-up', () => s.call('POST', `${portalPath}/developers`, { body: { email_address: `${uid('late')}@example.com`, password: PASSWORD } })],
        ['sign-in', () => s.call('POST', `${portalPath}/sessions`, { body: { email_address: d.email, password: PASSWORD } })],
        ['me', () => dev(d.token, 'GET', `${portalPath}/developer`)],
        ['my requests', () => dev(d.token, 'GET', `${portalPath}/key-requests`)],
        ['request', () => dev(d.token, 'POST', `${portalPath}/key-requests`, { api_id: p.apiId, plan_id: 'pro' })],
        ['collect', () => dev(d.token, 'POST', `${portalPath}/key-requests/${uid('req')}/key`)],
        ['my keys', () => dev(d.token, 'GET', `${portalPath}/keys`)],
        ['usage', () => dev(d.token, 'GET', `${portalPath}/keys/${key_hash}/usage`)],
        ['roll', () => dev(d.token, 'POST', `${portalPath}/keys/${key_hash}/roll`)],
        ['revoke', () => dev(d.token, 'DELETE', `${portalPath}/keys/${key_hash}`)],
      ];
      for (const [what, call] of calls) {
        await standing(false);
        expect((await call()).status, what).toBe(404);
      }
      // Signing out works whatever the portal's state.
      await standing(true);
      const other = (await s.call('POST', `${portalPath}/sessions`, { body: { email_address: d.email, password: PASSWORD } })).body.Meta.token;
      await standing(false);
      expect((await dev(other, 'DELETE', `${portalPath}/session`)).status).toBe(200);
      await standing(true);
      expect((await dev(d.token, 'GET', `${portalPath}/keys`)).body.keys.map((k: { key_hash: string }) => k.key_hash)).toEqual([key_hash]);
      expect((await s.call('GET', `${portalPath}/catalogue/${p.apiId}/openapi`)).status).toBe(200);
    },
  );

  it('needs portal rights: a user with portal read cannot write, one without portal cannot read', async () => {
    const p = await portal();
    const reader = await s.admin('POST', '/admin/users', { org_id: p.orgId, email_address: `${uid('r')}@x.example`, user_permissions: { portal: 'read' } });
    const readerKey = reader.body.Meta.access_key;
    expect((await s.dash(readerKey, 'GET', '/api/portal/catalogue')).status).toBe(200);
    expect((await s.dash(readerKey, 'PUT', '/api/portal/settings', { enabled: false, sign_up: 'open' })).status).toBe(403);
    const stranger = await s.admin('POST', '/admin/users', { org_id: p.orgId, email_address: `${uid('s')}@x.example`, user_permissions: { apis: 'write' } });
    expect((await s.dash(stranger.body.Meta.access_key, 'GET', '/api/portal/settings')).status).toBe(403);
    expect((await s.dash(p.key, 'GET', '/api/portal/settings')).body).toMatchObject({ enabled: true, sign_up: 'open', title: 'Acme APIs' });
  });
});

describe('developers: sign-up, sign-in and their session', () => {
  it('signs up the same way for a taken e-mail, which changes nothing, and keeps only the hash of the password', async () => {
    const p = await portal();
    const email = `${uid('same')}@example.com`;
    const first = await s.call('POST', `/portal/${p.orgId}/developers`, { body: { email_address: email, password: PASSWORD } });
    const again = await s.call('POST', `/portal/${p.orgId}/developers`, { body: { email_address: email.toUpperCase(), password: 'another password!' } });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(first.body).toEqual({ Status: 'OK', Message: 'Sign-up received', Meta: { state: 'active' } });
    const list = await s.dash(p.key, 'GET', '/api/portal/developers');
    expect(list.body.developers).toHaveLength(1);
    expect(list.body.developers[0]).toMatchObject({ email_address: email, state: 'active', org_id: p.orgId });
    expect(JSON.stringify(list.body)).not.toContain('password');
    // The first password still signs in; the second never replaced it.
    expect((await s.call('POST', `/portal/${p.orgId}/sessions`, { body: { email_address: email, password: 'another password!' } })).status).toBe(401);
    expect((await s.call('POST', `/portal/${p.orgId}/sessions`, { body: { email_address: email, password: PASSWORD } })).status).toBe(200);
    const items = await scanAll(s.table);
    expect(JSON.stringify(items)).not.toContain(PASSWORD);
    const stored = items.find((i) => i.entity === 'developer' && i.org_id === p.orgId)!;
    expect(String(stored.password_hash)).toMatch(/^scrypt\$/);
  });

  it('answers one 401 for an unknown e-mail and a wrong password, and refuses short passwords (400)', async () => {
    const p = await portal();
    const d = await developer(p);
    const wrong = await s.call('POST', `/portal/${p.orgId}/sessions`, { body: { email_address: d.email, password: 'not the password' } });
    const unknown = await s.call('POST', `/portal/${p.orgId}/sessions`, { body: { email_address: `${uid('none')}@example.com`, password: PASSWORD } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect((await s.call('POST', `/portal/${p.orgId}/developers`, { body: { email_address: 'short@example.com', password: 'short' } })).status).toBe(400);
  });

  it('limits sign-in attempts per account: the 11th in the window is 429 with Retry-After, even with the right password', async () => {
    await inOneSignInWindow(async () => {
      const p = await portal();
      const d = await developer(p);
      for (let i = 0; i < 9; i++) {
        expect((await s.call('POST', `/portal/${p.orgId}/sessions`, { body: { email_address: d.email, password: `wrong ${i} password` } })).status).toBe(401);
      }
      const limited = await s.call('POST', `/portal/${p.orgId}/sessions`, { body: { email_address: d.email, password: PASSWORD } });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another account from the same source is not locked by it.
      expect((await developer(p)).token).toMatch(/^dps_/);
    });
  }, 150_000);

  it('holds approval sign-ups pending until a user approves, and takes invitations for their e-mail only', async () => {
    const p = await portal('approval');
    const email = `${uid('pending')}@example.com`;
    const up = await s.call('POST', `/portal/${p.orgId}/developers`, { body: { email_address: email, password: PASSWORD } });
    expect(up.body.Meta).toEqual({ state: 'pending' });
    const early = await s.call('POST', `/portal/${p.orgId}/sessions`, { body: { email_address: email, password: PASSWORD } });
    expect(early.status).toBe(403);
    const pending = await s.dash(p.key, 'GET', '/api/portal/developers?state=pending');
    const id = pending.body.developers[0].id;
    expect((await s.dash(p.key, 'PUT', `/api/portal/developers/${id}`, { state: 'active' })).body.Meta.state).toBe('active');
    expect((await s.call('POST', `/portal/${p.orgId}/sessions`, { body: { email_address: email, password: PASSWORD } })).status).toBe(200);

    await s.dash(p.key, 'PUT', '/api/portal/settings', { enabled: true, sign_up: 'invitation' });
    const invitedEmail = `${uid('invited')}@example.com`;
    const uninvited = await s.call('POST', `/portal/${p.orgId}/developers`, { body: { email_address: invitedEmail, password: PASSWORD } });
    expect(uninvited.status).toBe(400);
    const inv = await s.dash(p.key, 'POST', '/api/portal/invitations', { email_address: invitedEmail });
    expect(inv.status).toBe(200);
    const invitation = inv.body.Meta.invitation;
    const elsewhere = await s.call('POST', `/portal/${p.orgId}/developers`, { body: { email_address: 'other@example.com', password: PASSWORD, invitation } });
    expect(elsewhere.status).toBe(403);
    const joined = await s.call('POST', `/portal/${p.orgId}/developers`, { body: { email_address: invitedEmail, password: PASSWORD, invitation } });
    expect(joined.body.Meta).toEqual({ state: 'active' });
    const reused = await s.call('POST', `/portal/${p.orgId}/developers`, { body: { email_address: invitedEmail, password: PASSWORD, invitation } });
    expect(reused.status).toBe(403);
  });

  it("reaches only its own portal's developer routes: not another portal, not a dashboard, gateway or admin route; sign-out ends it", async () => {
    const p = await portal();
    const other = await portal();
    const d = await developer(p);
    const me = await dev(d.token, 'GET', `/portal/${p.orgId}/developer`);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: d.id, email_address: d.email, state: 'active' });
    expect((await dev(d.token, 'GET', `/portal/${other.orgId}/developer`)).status).toBe(401);
    expect((await dev(d.token, 'GET', '/api/portal/settings')).status).toBe(401);
    expect((await dev(d.token, 'GET', '/api/keys')).status).toBe(401);
    expect((await s.call('GET', '/gw/routing', { headers: { 'x-gw-authorization': d.token } })).status).toBe(401);
    expect((await s.call('GET', '/admin/organisations', { headers: { 'admin-auth': d.token } })).status).toBe(401);
    // Disabled by a user: the session is refused at once.
    await s.dash(p.key, 'PUT', `/api/portal/developers/${d.id}`, { state: 'disabled' });
    expect((await dev(d.token, 'GET', `/portal/${p.orgId}/developer`)).status).toBe(401);
    await s.dash(p.key, 'PUT', `/api/portal/developers/${d.id}`, { state: 'active' });
    expect((await dev(d.token, 'DELETE', `/portal/${p.orgId}/session`)).status).toBe(200);
    expect((await dev(d.token, 'GET', `/portal/${p.orgId}/developer`)).status).toBe(401);
  });
});

describe('key requests and the keys they issue', () => {
  it("issues an automatic plan's key at once (shown once), which the check takes for the API, with live quota", async () => {
    const p = await portal();
    const d = await developer(p);
    const asked = await dev(d.token, 'POST', `/portal/${p.orgId}/key-requests`, { api_id: p.apiId, plan_id: 'free' });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const { key, key_hash, request } = asked.body.Meta;
    expect(request).toMatchObject({ state: 'approved', decided_by: 'auto', api_id: p.apiId, plan_id: 'free', developer_id: d.id, key_hash });
    expect((await check(s, key, p.apiId)).status).toBe(200);
    const keys = await dev(d.token, 'GET', `/portal/${p.orgId}/keys`);
    expect(keys.body.keys).toEqual([
      expect.objectContaining({ key_hash, request_id: request.id, api_id: p.apiId, plan_id: 'free', quota_max: 3, quota_remaining: 2, rate: 100, per: 1 }),
    ]);
    expect(JSON.stringify(keys.body)).not.toContain(key);
    // An ordinary key of the organisation: the dashboard lists it, named after its developer.
    const listed = await s.dash(p.key, 'GET', '/api/keys');
    expect(listed.body.keys.find((k: { key_hash: string }) => k.key_hash === key_hash)).toMatchObject({
      alias: `${d.email} (free)`,
      apply_policies: [p.policyId],
    });
    const usage = await dev(d.token, 'GET', `/portal/${p.orgId}/keys/${key_hash}/usage?days=7`);
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({ resolution: 'day' });
    expect(usage.body.data).toHaveLength(7);
    expect(JSON.stringify(await scanAll(s.table))).not.toContain(key);
  });

  it('holds a manual plan for a user: approve, then the developer collects the key once; a refusal carries its reason', async () => {
    const p = await portal();
    const d = await developer(p);
    const asked = await dev(d.token, 'POST', `/portal/${p.orgId}/key-requests`, { api_id: p.apiId, plan_id: 'pro' });
    expect(asked.body.Meta.key).toBeUndefined();
    const id = asked.body.Meta.request.id;
    expect(asked.body.Meta.request.state).toBe('pending');
    expect((await dev(d.token, 'POST', `/portal/${p.orgId}/key-requests/${id}/key`)).status).toBe(409);
    const queue = await s.dash(p.key, 'GET', '/api/portal/key-requests');
    expect(queue.body.requests.map((r: { id: string }) => r.id)).toEqual([id]);
    const approved = await s.dash(p.key, 'POST', `/api/portal/key-requests/${id}/approve`);
    expect(approved.body.Meta).toMatchObject({ state: 'approved', decided_by: expect.any(String) });
    expect((await s.dash(p.key, 'POST', `/api/portal/key-requests/${id}/approve`)).status).toBe(409);
    expect((await s.dash(p.key, 'GET', '/api/portal/key-requests')).body.requests).toEqual([]);
    const collected = await dev(d.token, 'POST', `/portal/${p.orgId}/key-requests/${id}/key`);
    expect(collected.status).toBe(200);
    expect((await check(s, collected.body.Meta.key, p.apiId)).status).toBe(200);
    const again = await dev(d.token, 'POST', `/portal/${p.orgId}/key-requests/${id}/key`);
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.body)).not.toContain(collected.body.Meta.key);

    const second = await dev(d.token, 'POST', `/portal/${p.orgId}/key-requests`, { api_id: p.apiId, plan_id: 'pro' });
    const refused = await s.dash(p.key, 'POST', `/api/portal/key-requests/${second.body.Meta.request.id}/refuse`, { reason: 'Tell us more first' });
    expect(refused.body.Meta).toMatchObject({ state: 'refused', reason: 'Tell us more first' });
    const mine = await dev(d.token, 'GET', `/portal/${p.orgId}/key-requests`);
    expect(mine.body.requests.map((r: { state: string; reason?: string }) => [r.state, r.reason])).toEqual([
      ['refused', 'Tell us more first'],
      ['approved', undefined],
    ]);
    // Not a plan of a published API: 404.
    expect((await dev(d.token, 'POST', `/portal/${p.orgId}/key-requests`, { api_id: p.apiId, plan_id: 'gold' })).status).toBe(404);
    expect((await dev(d.token, 'POST', `/portal/${p.orgId}/key-requests`, { api_id: p.classicId, plan_id: 'free' })).status).toBe(404);
  });

  it('rolls a key (the old one stops, the new one works with the same quota) and revokes one', async () => {
    const p = await portal();
    const d = await developer(p);
    const { key, key_hash } = (await dev(d.token, 'POST', `/portal/${p.orgId}/key-requests`, { api_id: p.apiId, plan_id: 'free' })).body.Meta;
    const rolled = await dev(d.token, 'POST', `/portal/${p.orgId}/keys/${key_hash}/roll`);
    expect(rolled.status, JSON.stringify(rolled.body)).toBe(200);
    expect(rolled.body.Meta.key_hash).not.toBe(key_hash);
    expect((await check(s, key, p.apiId)).status).toBe(403);
    expect((await check(s, rolled.body.Meta.key, p.apiId)).status).toBe(200);
    const keys = (await dev(d.token, 'GET', `/portal/${p.orgId}/keys`)).body.keys;
    expect(keys.map((k: { key_hash: string }) => k.key_hash)).toEqual([rolled.body.Meta.key_hash]);
    expect((await dev(d.token, 'POST', `/portal/${p.orgId}/keys/${key_hash}/roll`)).status).toBe(404);

    const revoked = await dev(d.token, 'DELETE', `/portal/${p.orgId}/keys/${rolled.body.Meta.key_hash}`);
    expect(revoked.body.Meta).toMatchObject({ state: 'revoked' });
    // The stage that revoked forgets the key at once; another process (the emulator's check function, which has seen the
    // key) within CACHE_SECONDS, the bound test/e2e/user-admin.test.ts shows.
    if (!onEmulator) expect((await check(s, rolled.body.Meta.key, p.apiId)).status).toBe(403);
    expect((await dev(d.token, 'GET', `/portal/${p.orgId}/keys`)).body.keys).toEqual([]);
    expect((await s.dash(p.key, 'GET', `/api/keys/${rolled.body.Meta.key_hash}`)).status).toBe(404);
  });

  it("keeps every developer's requests and keys their own: another developer gets 404 as for nothing", async () => {
    const p = await portal();
    const a = await developer(p);
    const b = await developer(p);
    const { key_hash } = (await dev(a.token, 'POST', `/portal/${p.orgId}/key-requests`, { api_id: p.apiId, plan_id: 'free' })).body.Meta;
    const pending = (await dev(a.token, 'POST', `/portal/${p.orgId}/key-requests`, { api_id: p.apiId, plan_id: 'pro' })).body.Meta.request.id;
    await s.dash(p.key, 'POST', `/api/portal/key-requests/${pending}/approve`);
    expect((await dev(b.token, 'POST', `/portal/${p.orgId}/key-requests/${pending}/key`)).status).toBe(404);
    expect((await dev(b.token, 'POST', `/portal/${p.orgId}/keys/${key_hash}/roll`)).status).toBe(404);
    expect((await dev(b.token, 'DELETE', `/portal/${p.orgId}/keys/${key_hash}`)).status).toBe(404);
    expect((await dev(b.token, 'GET', `/portal/${p.orgId}/keys/${key_hash}/usage`)).status).toBe(404);
    expect((await dev(b.token, 'GET', `/portal/${p.orgId}/keys`)).body.keys).toEqual([]);
    expect((await dev(b.token, 'GET', `/portal/${p.orgId}/key-requests`)).body.requests).toEqual([]);
    // Another organisation's user cannot decide this portal's requests.
    const other = await portal();
    expect((await s.dash(other.key, 'POST', `/api/portal/key-requests/${pending}/refuse`, { reason: 'no' })).status).toBe(404);
    expect((await s.dash(other.key, 'PUT', `/api/portal/developers/${a.id}`, { state: 'disabled' })).status).toBe(404);
    expect((await dev(a.token, 'POST', `/portal/${p.orgId}/key-requests/${pending}/key`)).status).toBe(200);
  });
});
