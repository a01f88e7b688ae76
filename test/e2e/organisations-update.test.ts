/**
 * An installation admin changes an organisation (PUT /admin/organisations/{orgID}, If-Match as
 * every versioned object): its members, its own limits in place of the installation's, and
 * `active`, which suspends it (contract §9): its keys are refused by the check with a reason of
 * their own, its users by the dashboard, gateway writes for it with 422, and its webhooks stop;
 * nothing is deleted, and `active: true` restores everything as it was.
 */
import { expect, it } from 'vitest';
import { makeApi, makeKey, rightsFor, uid } from '../support/fixtures';
import { feedSuite as suite, useWebhookStage } from '../support/webhook-stage';

const ws = useWebhookStage();
const s = () => ws.s;

const put = (orgId: string, body: Record<string, unknown>, ifMatch?: string) =>
  s().admin('PUT', `/admin/organisations/${orgId}`, body, ifMatch ? { 'if-match': ifMatch } : {});
const read = (orgId: string) => s().admin('GET', `/admin/organisations/${orgId}`);
const check = (key: string, apiId: string) => s().gw('POST', '/gw/sessions/check', { key, api_id: apiId, path: '/x', method: 'GET' });

suite('PUT /admin/organisations/{orgID}', () => {
  it('replaces the body under If-Match; a stale version is 412, a foreign id or an unknown limit 400, and neither changes it', async () => {
    const { orgId } = await s().tenant();
    const first = await read(orgId);
    expect(first.headers.get('etag')).toBe('"1"');
    const created = first.body.created_at;

    const ok = await put(orgId, { owner_name: 'Renamed Ltd', limits: { writes: 50 } }, '"1"');
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ Status: 'OK', Message: 'Organisation updated', Meta: orgId });
    expect(ok.headers.get('etag')).toBe('"2"');
    const after = await read(orgId);
    expect(after.body).toMatchObject({ id: orgId, owner_name: 'Renamed Ltd', limits: { writes: 50 }, created_at: created, version: 2 });

    expect((await put(orgId, { owner_name: 'Late' }, '"1"')).status).toBe(412);
    const foreign = await put(orgId, { id: uid('other'), owner_name: 'Other' });
    expect(foreign.status).toBe(400);
    expect(foreign.text).toContain("is not the path's");
    const unknownLimit = await put(orgId, { limits: { writes: 5, sockets: 2 } });
    expect(unknownLimit.status).toBe(400);
    expect(unknownLimit.text).toContain('sockets');
    expect((await put(orgId, { limits: { writes: 0 } })).status).toBe(400);
    expect((await read(orgId)).body).toMatchObject({ owner_name: 'Renamed Ltd', version: 2 });

    expect((await put(uid('nobody'), { owner_name: 'x' })).status).toBe(404);
  });

  it("an organisation's own limits replace the installation's for it alone: dashboard writes per window and webhooks held", async () => {
    const limited = await s().tenant();
    const other = await s().tenant();
    expect((await put(limited.orgId, { owner_name: limited.orgId, limits: { writes: 2, hooks: 1 } })).status).toBe(200);
    const rx = await ws.receiver();
    const hook = (key: string, name: string) => s().dash(key, 'POST', '/api/hooks', { name, method: 'POST', target_path: rx.url, header_map: {} });

    expect((await hook(limited.key, 'first')).status).toBe(200);
    const second = await hook(limited.key, 'second');
    expect(second.status).toBe(409);
    expect(second.text).toContain('1 webhooks');
    const third = await hook(limited.key, 'third');
    expect(third.status).toBe(429);
    expect(third.text).toContain('its 2 dashboard writes');

    // The installation's figures still hold for everyone else.
    for (const name of ['a', 'b', 'c']) expect((await hook(other.key, name)).status).toBe(200);
  });

  it('active: false suspends every path of the organisation and deletes nothing; active: true restores it as it was', async () => {
    const { orgId, key: dashKey } = ws.t;
    const rx = await ws.receiver();
    const hook = await ws.hook(dashKey, rx.url);
    const apiId = uid('susp');
    const made = await s().gw('POST', '/gw/apis', {
      api_id: apiId,
      name: apiId,
      org_id: orgId,
      proxy: { listen_path: `/${apiId}/`, target_url: 'http://upstream.example' },
      event_handlers: { events: { AuthFailure: [{ handler_name: 'eh_web_hook_handler', handler_meta: { webhook_id: hook.id } }] } },
    });
    expect(made.status, made.text).toBe(200);
    const { key } = await makeKey(s(), { org_id: orgId, access_rights: rightsFor(apiId), quota_max: 10, quota_renewal_rate: 3600 });
    const denied = await makeKey(s(), { org_id: orgId, access_rights: rightsFor(await makeApi(s(), orgId, 'elsewhere')) });
    expect((await check(key, apiId)).body).toMatchObject({ allowed: true, quota_remaining: 9 });

    const version = (await read(orgId)).headers.get('etag')!;
    expect((await put(orgId, { owner_name: orgId, active: false }, version)).status).toBe(200);
    expect((await read(orgId)).body).toMatchObject({ active: false });

    // The check: a reason of its own, not the key's.
    const refused = await check(key, apiId);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ allowed: false, reason: 'OrgSuspended' });
    expect((await check(denied.key, apiId)).body).toMatchObject({ reason: 'OrgSuspended' });
    // The dashboard: the user's key is valid, the organisation is not.
    const dash = await s().dash(dashKey, 'GET', '/api/apis');
    expect(dash.status).toBe(403);
    expect(dash.text).toContain('organisation is suspended');
    // Gateway writes for it.
    const write = await s().gw('POST', '/gw/keys/create', { org_id: orgId, access_rights: rightsFor(apiId) });
    expect(write.status).toBe(422);
    expect(write.text).toContain(`organisation ${orgId} is suspended`);
    const api = await s().gw('POST', '/gw/apis', { api_id: uid('late'), name: 'late', org_id: orgId, proxy: { listen_path: `/${uid('late')}/` } });
    expect(api.status).toBe(422);
    // Webhooks: the refusals above recorded AuthFailure events of the API, and none is delivered.
    await s().caughtUp();
    expect(rx.calls).toHaveLength(0);

    // Restored (active left out is active): everything as it was, the quota where it stood.
    expect((await put(orgId, { owner_name: orgId })).status).toBe(200);
    expect((await check(key, apiId)).body).toMatchObject({ allowed: true, quota_remaining: 8 });
    expect((await s().dash(dashKey, 'GET', `/api/apis/${apiId}`)).status).toBe(200);
    expect((await s().gw('POST', '/gw/keys/create', { org_id: orgId, access_rights: rightsFor(apiId) })).status).toBe(200);
    // A key the check has not refused within the last second (one refusal event per key a second).
    const later = await makeKey(s(), { org_id: orgId, access_rights: rightsFor(await makeApi(s(), orgId, 'elsewhere')) });
    expect((await check(later.key, apiId)).body).toMatchObject({ reason: 'AccessDenied' });
    const [call] = await rx.waitFor(1);
    expect(JSON.parse(call!.body)).toMatchObject({ event: 'AuthFailure', api_id: apiId, data: { reason: 'AccessDenied' } });
    await s().caughtUp();
    expect(rx.calls).toHaveLength(1);
  });
});
