/**
 * Contract §9, offboarding an organisation, through the local stage and its change feed: DELETE
 * marks it at once (every write for it 422, its keys refused, its users 403, a PUT of it 409), the
 * run deletes every item it owns and nothing of the other organisation, whose checks keep working
 * and keep their figures meanwhile; the run's counts are exactly what was stored; what remains
 * of it is the run's record, and what expires by TTL.
 */
import { describe, expect, it } from 'vitest';
import { assetData, hookBody, makeApi, makeKey, rightsFor, uid } from '../support/fixtures';
import { run } from '../../tools/gwctl/main';
import { ADMIN_SECRET } from '../support/table';
import { byEntity, names, ownedBy, scanAll, type Item } from '../support/org-items';
import { OFFBOARDING_STEPS } from '../../shared/schemas/offboarding';
import { onEmulator } from '../support/stage';
import { useStage, useTenants } from '../support/file-stage';

// Caches of 6 s: the run waits 13 s before it deletes, so what the test writes meanwhile is in its snapshot.
process.env.CACHE_SECONDS = '6';
const s = useStage({ changeFeed: true });
const [a, b] = useTenants(s, 2);

async function waitForRun(orgId: string, until: (run: Item) => boolean, ms = 240_000): Promise<Item> {
  const deadline = Date.now() + ms;
  for (;;) {
    const r = await s.admin('GET', `/admin/organisations/${orgId}/offboarding`);
    expect(r.status, r.text).toBe(200);
    if (until(r.body.Meta)) return r.body.Meta;
    if (Date.now() > deadline) throw new Error(`the run of ${orgId} stands at ${JSON.stringify(r.body.Meta)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/**
 * A portal of the organisation: its settings, a published API, a developer with a session, requests of three states and an
 * invitation. Answers the hash of the key the developer holds.
 */
async function portalOf(orgId: string, key: string, apiId: string, policyId: string): Promise<string> {
  const ok = (r: { status: number; text: string }) => expect(r.status, r.text).toBe(200);
  ok(await s.dash(key, 'PUT', '/api/portal/settings', { enabled: true, sign_up: 'open' }));
  const plans = [
    { id: 'free', name: 'Free', policy_id: policyId, approval: 'auto' },
    { id: 'pro', name: 'Pro', policy_id: policyId, approval: 'manual' },
  ];
  ok(await s.dash(key, 'PUT', `/api/portal/catalogue/${apiId}`, { plans }));
  const developer = { email_address: `dev@${orgId}.example`, password: 'developer password' };
  ok(await s.call('POST', `/portal/${orgId}/developers`, { body: developer }));
  const token = (await s.call('POST', `/portal/${orgId}/sessions`, { body: developer })).body.Meta.token;
  const ask = (plan: string) =>
    s.call('POST', `/portal/${orgId}/key-requests`, { headers: { authorization: `Bearer ${token}` }, body: { api_id: apiId, plan_id: plan } });
  const held = await ask('free');
  ok(held);
  ok(await ask('pro'));
  const refused = (await ask('pro')).body.Meta.request.id;
  ok(await s.dash(key, 'POST', `/api/portal/key-requests/${refused}/refuse`, { reason: 'no' }));
  ok(await s.dash(key, 'POST', '/api/portal/invitations', { email_address: `invited@${orgId}.example` }));
  return held.body.Meta.key_hash;
}

describe.skipIf(onEmulator)('offboarding an organisation', () => {
  it('deletes every item it owns, counted exactly, and nothing of another organisation, whose checks keep working', async () => {
    // Everything an organisation can own.
    const domain = `${uid('shop').toLowerCase()}.example`;
    expect((await s.admin('PUT', `/admin/organisations/${a.orgId}/domains/${domain}`)).status).toBe(200);
    const [api1, api2] = [await makeApi(s, a.orgId, 'one'), await makeApi(s, a.orgId, 'two')];
    const onDomain = uid('dom');
    const domApi = await s.gw('POST', '/gw/apis', {
      api_id: onDomain,
      name: 'd',
      org_id: a.orgId,
      domain,
      proxy: { listen_path: '/d/', target_url: 'http://u.example' },
    });
    expect(domApi.status, domApi.text).toBe(200);
    const keys = [
      await makeKey(s, { org_id: a.orgId, access_rights: rightsFor(api1, api2) }),
      await makeKey(s, { org_id: a.orgId, access_rights: rightsFor(api1), quota_max: 3, quota_renewal_rate: 3600 }),
      await makeKey(s, { org_id: a.orgId, access_rights: rightsFor(api2), basic_auth_data: { password: 'pw-123456' }, username: 'alice' }),
    ];
    expect((await s.gw('PUT', `/gw/org/keys/${a.orgId}`, { quota_max: 1000, quota_renewal_rate: 3600 })).status).toBe(200);
    for (let i = 0; i < 5; i++) await s.gw('POST', '/gw/sessions/check', { key: keys[1]!.key, api_id: api1 });
    await s.gw('POST', '/gw/sessions/check', { key: keys[0]!.key, api_id: api2 });
    const policy = uid('pol');
    expect((await s.gw('POST', '/gw/policies', { id: policy, org_id: a.orgId, access_rights: rightsFor(api1) })).status).toBe(200);
    const client = await s.gw('POST', '/gw/oauth/clients/create', { api_id: api1, redirect_uri: 'https://a.example/cb', description: 'c' });
    expect(client.status, client.text).toBe(200);
    const hook = await s.dash(a.key, 'POST', '/api/hooks', hookBody('h'));
    expect(hook.status, hook.text).toBe(200);
    expect((await s.dash(a.key, 'POST', `/api/hooks/${hook.body.Meta}/test`)).status).toBe(200);
    expect((await s.dash(a.key, 'POST', '/api/assets', { id: uid('tpl'), name: 't', kind: 'oas-template', data: assetData('t') })).status).toBe(200);
    expect((await s.admin('POST', '/admin/users', { org_id: a.orgId, email_address: `second@${a.orgId}.example` })).status).toBe(200);
    const developerKey = await portalOf(a.orgId, a.key, api1, policy);
    const stamp = new Date().toISOString();
    const record = {
      api_id: api1,
      api_name: 'one',
      path: '/x',
      method: 'GET',
      response_code: 200,
      key_hash: keys[0]!.hash,
      org_id: a.orgId,
      timestamp: stamp,
      request_time: 20,
      latency: { total: 15, upstream: 5 },
    };
    expect((await s.gw('POST', '/gw/analytics', { records: [record, { ...record, path: '/y' }] })).status).toBe(200);

    // The other organisation, with traffic of its own.
    const bApi = await makeApi(s, b.orgId, 'b');
    const bKey = await makeKey(s, { org_id: b.orgId, access_rights: rightsFor(bApi) });
    const check = () => s.gw('POST', '/gw/sessions/check', { key: bKey.key, api_id: bApi });
    expect((await check()).status).toBe(200);
    await s.caughtUp();

    const ids = [a.orgId, api1, api2, onDomain, policy, hook.body.Meta as string, ...keys.map((k) => k.hash), developerKey, domain];
    const others = (await scanAll(s.table)).filter((i) => !names(i, ids));
    // Offboarding starts: answered at once, the organisation marked.
    const started = await s.admin('DELETE', `/admin/organisations/${a.orgId}`);
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ Status: 'OK', Message: 'Offboarding started', Meta: { org_id: a.orgId, state: 'fencing', deleted_total: 0 } });
    // Every write for it is refused from this moment, whoever writes.
    expect((await s.gw('POST', '/gw/keys/create', { org_id: a.orgId, access_rights: rightsFor(api1) })).status).toBe(422);
    expect((await s.gw('POST', '/gw/policies', { id: uid('p'), org_id: a.orgId, access_rights: rightsFor(api1) })).status).toBe(422);
    expect((await s.admin('POST', '/admin/users', { org_id: a.orgId, email_address: `late@${a.orgId}.example` })).status).toBe(422);
    expect((await s.admin('PUT', `/admin/organisations/${a.orgId}`, { owner_name: 'back', active: true })).status).toBe(409);
    expect((await s.dash(a.key, 'POST', '/api/hooks', hookBody('late'))).status).toBe(403);
    expect((await s.gw('POST', '/gw/sessions/check', { key: keys[0]!.key, api_id: api1 })).status).toBe(403);
    // Asked again: the run as it stands.
    const again = await s.admin('DELETE', `/admin/organisations/${a.orgId}`);
    expect(again.body.Message).toBe('Offboarding under way');

    // What it owns, with the refusals above counted (as OrgSuspended, before they were answered), before the run deletes
    // anything (the change feed's consumers add nothing for it any more).
    const owned = ownedBy(await scanAll(s.table), ids);
    expect((await s.admin('GET', `/admin/organisations/${a.orgId}/offboarding`)).body.Meta.state).toBe('fencing');
    // Traffic of the other organisation while the run deletes.
    let checking = true;
    const bAnswers: number[] = [];
    const traffic = (async () => {
      while (checking) bAnswers.push((await check()).status);
    })();

    // Enough kinds for the test to mean something.
    expect(Object.keys(byEntity(owned))).toEqual(
      expect.arrayContaining([
        'api',
        'key',
        'live_quota',
        'policy',
        'hook',
        'delivery',
        'asset',
        'user',
        'access_key',
        'domain_grant',
        'listen_path',
        'oauth_client',
        'portal_settings',
        'catalogue_entry',
        'developer',
        'developer_email',
        'developer_session',
        'developer_invitation',
        'key_request',
      ]),
    );
    expect(Object.keys(byEntity(owned))).toEqual(expect.arrayContaining(['api_usage', 'key_activity', 'usage_day', 'usage_month', 'org_session', 'org']));

    const done = await waitForRun(a.orgId, (r) => r.state === 'done');
    checking = false;
    await traffic;
    await s.caughtUp();

    // Exactly what was stored, by kind.
    expect(done.deleted).toEqual(byEntity(owned));
    expect(done.deleted_total).toBe(owned.length);
    expect(done).toMatchObject({ step: null, steps_done: OFFBOARDING_STEPS.length, finished_at: expect.any(String) });

    // Nothing of it is left but its run's record and what expires by TTL; everything of the other organisation is.
    const after = await scanAll(s.table);
    expect(ownedBy(after, ids)).toEqual([]);
    expect(after.filter((i) => i.entity === 'offboarding').map((i) => i.PK)).toEqual([`OFFBOARD#${a.orgId}`]);
    const stillThere = new Set(after.map((i) => `${String(i.PK)}\n${String(i.SK)}`));
    expect(others.filter((i) => !stillThere.has(`${String(i.PK)}\n${String(i.SK)}`)).map((i) => i.entity)).toEqual([]);

    // The other organisation's checks all passed, and its month counts every one of them.
    expect(bAnswers.length).toBeGreaterThan(0);
    expect(bAnswers.every((x) => x === 200)).toBe(true);
    const month = new Date().toISOString().slice(0, 7);
    const usage = await s.admin('GET', `/admin/organisations/${b.orgId}/usage?month=${month}`);
    expect(usage.body.total.allowed).toBe(bAnswers.length + 1);

    // The organisation is gone: read, list, its user's key, DELETE again.
    expect((await s.admin('GET', `/admin/organisations/${a.orgId}`)).status).toBe(404);
    expect((await s.dash(a.key, 'GET', '/api/apis')).status).toBe(401);
    expect((await s.gw('POST', '/gw/sessions/check', { key: keys[0]!.key, api_id: api1 })).status).toBe(403);
    expect((await s.admin('DELETE', `/admin/organisations/${a.orgId}`)).status).toBe(404);
    // The installation's count lost it.
    const list = await s.admin('GET', '/admin/organisations');
    expect(list.body.organisations.map((o: { id: string }) => o.id)).toEqual([b.orgId]);
    expect(list.body.pages).toBe(1);
  }, 360_000);

  it('gwctl offboard starts the run and, with --wait, follows it to the end', async () => {
    const leaving = await s.tenant();
    await makeApi(s, leaving.orgId, 'gone');
    const out: string[] = [];
    const err: string[] = [];
    const io = { env: { GW_URL: s.url, GW_ADMIN_SECRET: ADMIN_SECRET }, out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
    expect(await run(['offboard', '--org-id', leaving.orgId, '--wait'], io), err.join('\n')).toBe(0);
    expect(out[0]).toBe(`${leaving.orgId}: Offboarding started; fencing, 0 items deleted`);
    expect(out).toContain('  api 1');
    expect(out.some((l) => l.startsWith(`${leaving.orgId}: done, `))).toBe(true);
    expect((await s.admin('GET', `/admin/organisations/${leaving.orgId}`)).status).toBe(404);
    // Without the admin credential, or for an organisation that does not exist: exit 1, said in words.
    expect(await run(['offboard', '--org-id', 'no-such-org'], io)).toBe(1);
    expect(err.at(-1)).toMatch(/404/);
    expect(await run(['offboard', '--org-id', b.orgId], { ...io, env: { GW_URL: s.url } })).toBe(1);
    expect(err.at(-1)).toMatch(/GW_ADMIN_SECRET is not set/);
    expect((await s.admin('GET', `/admin/organisations/${b.orgId}`)).status).toBe(200);
  }, 120_000);

  it('404 for an organisation that does not exist, and for a run never started', async () => {
    expect((await s.admin('DELETE', '/admin/organisations/no-such-org')).status).toBe(404);
    expect((await s.admin('GET', '/admin/organisations/no-such-org/offboarding')).status).toBe(404);
    expect((await s.admin('GET', `/admin/organisations/${b.orgId}/offboarding`)).status).toBe(404);
  });
});
