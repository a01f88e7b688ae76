/**
 * The developer portal's steps as events and in the audit trail (docs/using/developer-portal.md),
 * end to end on the local stage with its change feed: each step reaches the webhooks the portal's
 * settings name, signed, with no clear key or password in it, and each object's change is in the
 * organisation's trail with the developer or user who made it.
 */
import { expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../shared/domain/webhook-signature';
import { oasDoc, rightsFor, uid } from '../support/fixtures';
import { feedSuite as suite, useWebhookStage } from '../support/webhook-stage';

const ws = useWebhookStage();
const PASSWORD = 'a developer password';

suite('portal events and audit', () => {
  it('sign-up, approval, requests, decisions, roll and revoke each reach the portal hooks once; the trail names who did each', async () => {
    const { s, t } = ws;
    const rx = await ws.receiver();
    const hook = await ws.hook(t.key, rx.url);
    const other = await s.tenant(uid('other-org'));
    const foreignHook = await ws.hook(other.key, rx.url);
    expect((await s.dash(t.key, 'PUT', '/api/portal/settings', { enabled: true, sign_up: 'approval', hook_ids: [foreignHook.id] })).status).toBe(422);
    expect((await s.dash(t.key, 'PUT', '/api/portal/settings', { enabled: true, sign_up: 'approval', hook_ids: [hook.id] })).status).toBe(200);
    const apiId = uid('ev-api');
    expect((await s.dash(t.key, 'POST', '/api/apis/oas', oasDoc(apiId, t.orgId))).status).toBe(200);
    const policy = uid('ev-pol');
    expect((await s.dash(t.key, 'POST', '/api/portal/policies', { id: policy, name: 'P', access_rights: rightsFor(apiId) })).status).toBe(200);
    const plans = [
      { id: 'free', name: 'Free', policy_id: policy, approval: 'auto' },
      { id: 'pro', name: 'Pro', policy_id: policy, approval: 'manual' },
    ];
    expect((await s.dash(t.key, 'PUT', `/api/portal/catalogue/${apiId}`, { plans })).status).toBe(200);

    const email = `${uid('ev-dev')}@example.com`;
    const portal = `/portal/${t.orgId}`;
    await s.call('POST', `${portal}/developers`, { body: { email_address: email, password: PASSWORD } });
    const developerId = (await s.dash(t.key, 'GET', '/api/portal/developers?state=pending')).body.developers[0].id;
    await s.dash(t.key, 'PUT', `/api/portal/developers/${developerId}`, { state: 'active' });
    const token = (await s.call('POST', `${portal}/sessions`, { body: { email_address: email, password: PASSWORD } })).body.Meta.token;
    const dev = (method: string, path: string, body?: unknown) => s.call(method, path, { headers: { authorization: `Bearer ${token}` }, body });
    const auto = (await dev('POST', `${portal}/key-requests`, { api_id: apiId, plan_id: 'free' })).body.Meta;
    const manual = (await dev('POST', `${portal}/key-requests`, { api_id: apiId, plan_id: 'pro' })).body.Meta.request.id;
    await s.dash(t.key, 'POST', `/api/portal/key-requests/${manual}/approve`);
    const refused = (await dev('POST', `${portal}/key-requests`, { api_id: apiId, plan_id: 'pro' })).body.Meta.request.id;
    await s.dash(t.key, 'POST', `/api/portal/key-requests/${refused}/refuse`, { reason: 'Not now' });
    const rolled = (await dev('POST', `${portal}/keys/${auto.key_hash}/roll`)).body.Meta;
    await dev('DELETE', `${portal}/keys/${rolled.key_hash}`);

    const expected = [
      'DeveloperSignedUp',
      'DeveloperApproved',
      'KeyRequested',
      'KeyRequestApproved',
      'KeyRequested',
      'KeyRequestApproved',
      'KeyRequested',
      'KeyRequestRefused',
      'KeyRolled',
      'KeyRevoked',
    ];
    await rx.waitFor(expected.length, 20_000);
    await s.caughtUp();
    const events = rx.calls.map((c) => JSON.parse(c.body));
    expect(events.map((e) => e.event).sort()).toEqual([...expected].sort());
    expect(new Set(events.map((e) => e.id)).size).toBe(expected.length);
    expect(events.every((e) => e.org_id === t.orgId)).toBe(true);
    expect(events.find((e) => e.event === 'DeveloperSignedUp').data).toMatchObject({ developer_id: developerId, developer_email: email, state: 'pending' });
    expect(events.find((e) => e.event === 'KeyRequestRefused')).toMatchObject({ api_id: apiId, data: { request_id: refused, reason: 'Not now' } });
    expect(events.find((e) => e.event === 'KeyRolled').data.key_hash).toBe(rolled.key_hash);
    for (const c of rx.calls) {
      expect(c.body).not.toContain(auto.key);
      expect(c.body).not.toContain(rolled.key);
      expect(c.body).not.toContain(PASSWORD);
      expect(verifyWebhookSignature(hook.secret, c.headers['x-gw-signature']!, c.body).ok).toBe(true);
    }

    const trail = async (type: string) => (await s.dash(t.key, 'GET', `/api/audit-log?object_type=${type}&p=-1`)).body.entries as any[];
    const developerTrail = await trail('developer');
    expect(developerTrail.map((e) => [e.action, e.actor.type])).toEqual(
      expect.arrayContaining([
        ['create', 'developer'],
        ['update', 'user'],
      ]),
    );
    expect(JSON.stringify(developerTrail)).not.toContain('scrypt$');
    const requests = await trail('key_request');
    expect(requests.filter((e) => e.object.id === refused).map((e) => e.actor)).toEqual(
      expect.arrayContaining([{ type: 'developer', id: developerId }, expect.objectContaining({ type: 'user', id: t.userId })]),
    );
    expect((await trail('catalogue_entry')).map((e) => e.object.id)).toEqual([apiId]);
    expect((await trail('portal')).map((e) => e.object.id)).toEqual([t.orgId]);
  });
});
