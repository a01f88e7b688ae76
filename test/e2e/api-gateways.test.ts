/**
 * Where an API is live (docs/using/serving-apis.md "Where an API is live"): gateways report what
 * they serve (PUT /gw/gateways/{gatewayID}), and an API's users read, per gateway, whether it
 * serves the API as it is now, without ever reading another organisation's names or errors.
 */
import { describe, expect, it } from 'vitest';
import { uid } from '../support/fixtures';
import { useStage, useTenants } from '../support/file-stage';

const s = useStage();
const [a, b] = useTenants(s, 2);

async function createApi(key: string, apiId: string): Promise<void> {
  const r = await s.dash(key, 'POST', '/api/apis', {
    api_definition: { api_id: apiId, name: apiId, proxy: { listen_path: `/${apiId}/`, target_url: 'http://upstream.example' } },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

const routingVersion = async () => (await s.gw('GET', '/gw/routing/version')).body as { version: number; changed_at: string | null };

function report(version: number, changedAt: string | null, extra: Record<string, unknown> = {}) {
  return { kind: 'nginx', version, changed_at: changedAt, applied_at: new Date().toISOString(), failures: 0, last_error: null, skipped: [], ...extra };
}

/** The answer for `gatewayId` among an API's gateways. */
async function onGateway(key: string, apiId: string, gatewayId: string) {
  const r = await s.dash(key, 'GET', `/api/apis/${apiId}/gateways`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body.gateways as Array<Record<string, unknown>>).find((g) => g.gateway_id === gatewayId);
}

describe('PUT /gw/gateways/{gatewayID} and GET /api/apis/{apiID}/gateways', () => {
  it('a gateway at the current routing version serves every API as it is: applied', async () => {
    const apiId = uid('live');
    await createApi(a.key, apiId);
    const gw = uid('edge');
    const v = await routingVersion();
    const put = await s.gw('PUT', `/gw/gateways/${gw}`, report(v.version, v.changed_at));
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toEqual({ key: gw, status: 'ok', action: 'modified' });
    const seen = await onGateway(a.key, apiId, gw);
    expect(seen).toMatchObject({ gateway_id: gw, kind: 'nginx', state: 'applied', reason: null });
    expect(seen!.reported_at).toMatch(/^\d{4}-/);
  });

  it('a gateway behind a change of the API: pending, and applied once it reports a table read after it', async () => {
    const apiId = uid('behind');
    const gw = uid('edge');
    const before = await routingVersion();
    await createApi(a.key, apiId);
    await s.gw('PUT', `/gw/gateways/${gw}`, report(before.version, before.changed_at));
    expect(await onGateway(a.key, apiId, gw)).toMatchObject({ state: 'pending', reason: null });
    const after = await routingVersion();
    await s.gw('PUT', `/gw/gateways/${gw}`, report(after.version, after.changed_at));
    expect(await onGateway(a.key, apiId, gw)).toMatchObject({ state: 'applied' });
  });

  it('a failing gateway says that it fails, never its error text (it may name other organisations)', async () => {
    const apiId = uid('failing');
    const gw = uid('edge');
    const before = await routingVersion();
    await createApi(a.key, apiId);
    await s.gw('PUT', `/gw/gateways/${gw}`, report(before.version, before.changed_at, { failures: 3, last_error: `nginx -t: host ${b.orgId}.example` }));
    const seen = await onGateway(a.key, apiId, gw);
    expect(seen).toMatchObject({ state: 'pending' });
    expect(String(seen!.reason)).toContain('failed to apply');
    expect(JSON.stringify(seen)).not.toContain(b.orgId);
  });

  it('an API the gateway left out: left_out, with the reason it gave for that API only', async () => {
    const apiId = uid('left');
    await createApi(a.key, apiId);
    const gw = uid('edge');
    const v = await routingVersion();
    const skipped = [
      { api_id: apiId, reason: 'its upstream host upstream.example does not resolve from this gateway' },
      { api_id: 'someone-elses', reason: `a secret of ${b.orgId}` },
    ];
    await s.gw('PUT', `/gw/gateways/${gw}`, report(v.version, v.changed_at, { skipped }));
    const seen = await onGateway(a.key, apiId, gw);
    expect(seen).toMatchObject({ state: 'left_out', reason: skipped[0]!.reason });
    expect(JSON.stringify(seen)).not.toContain(b.orgId);
  });

  it("another organisation's API is 404, like one that exists nowhere; a user without apis: read is 403", async () => {
    const apiId = uid('theirs');
    await createApi(b.key, apiId);
    expect((await s.dash(a.key, 'GET', `/api/apis/${apiId}/gateways`)).status).toBe(404);
    expect((await s.dash(a.key, 'GET', `/api/apis/${uid('nowhere')}/gateways`)).status).toBe(404);
    const user = await s.admin('POST', '/admin/users', { org_id: a.orgId, email_address: `${uid('u')}@x.example`, user_permissions: { keys: 'read' } });
    expect((await s.dash(user.body.Message, 'GET', `/api/apis/${uid('x')}/gateways`)).status).toBe(403);
  });

  it('refuses a report it could not keep, and changes nothing', async () => {
    const gw = uid('edge');
    const v = await routingVersion();
    for (const [path, body] of [
      [`/gw/gateways/${gw}`, { ...report(v.version, v.changed_at), kind: 'envoy' }],
      [`/gw/gateways/${gw}`, { ...report(v.version, v.changed_at), extra: 1 }],
      [`/gw/gateways/${gw}`, { ...report(-1, v.changed_at) }],
      [`/gw/gateways/${gw}`, report(v.version, v.changed_at, { skipped: Array.from({ length: 501 }, (_, i) => ({ api_id: `a${i}`, reason: 'r' })) })],
      ['/gw/gateways/-bad', report(v.version, v.changed_at)],
    ] as const) {
      const r = await s.gw('PUT', path, body);
      expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBe(400);
      expect(r.body.status).toBe('error');
    }
    const apiId = uid('untouched');
    await createApi(a.key, apiId);
    expect(await onGateway(a.key, apiId, gw)).toBeUndefined();
  });
});

describe('a refused listen path names its member, so a form shows it beside the field', () => {
  it('409 taken: Meta.errors names proxy.listen_path', async () => {
    const apiId = uid('taken');
    await createApi(a.key, apiId);
    const other = uid('other');
    const r = await s.dash(a.key, 'POST', '/api/apis', {
      api_definition: { api_id: other, name: other, proxy: { listen_path: `/${apiId}/`, target_url: 'http://upstream.example' } },
    });
    expect(r.status).toBe(409);
    expect(r.body.Meta).toEqual({ errors: [{ path: 'proxy.listen_path', message: `listen path /${apiId} is taken` }] });
  });
});
