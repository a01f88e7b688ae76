/**
 * Ids unique across the installation (API ids and database ids, policy ids, OAuth client ids,
 * organisation ids) stay unique, as gateways route and look up by them; but a create naming a taken
 * one answers only that the id is taken (contract §2): the same bytes whether the holder is the
 * caller's own object or another organisation's, naming neither the id nor an owner, while a read
 * of another organisation's object answers 404. The 409 itself is the signal that remains.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { oasDoc, uid } from '../support/fixtures';
import type { Answer } from '../support/stage';
import { useStage } from '../support/file-stage';

type Tenant = { orgId: string; key: string };
/** What a tenant owns, by the ids others might name. */
type Owned = { api: string; dbId: string; policy: string; client: string };

const s = useStage();
let a: Tenant;
let b: Tenant;
let ofA: Owned;
let ofB: Owned;

const classic = (apiId: string, extra: Record<string, unknown> = {}) => ({
  api_definition: { api_id: apiId, name: apiId, proxy: { listen_path: `/${uid('taken')}/`, target_url: 'http://upstream.example' }, ...extra },
});

async function own(t: Tenant): Promise<Owned> {
  const api = uid('taken-api');
  const created = await s.dash(t.key, 'POST', '/api/apis', classic(api));
  expect(created.status, created.text).toBe(200);
  const policy = uid('taken-pol');
  expect((await s.dash(t.key, 'POST', '/api/portal/policies', { id: policy, name: 'p' })).status).toBe(200);
  const client = uid('taken-client');
  const c = await s.dash(t.key, 'POST', `/api/apis/oauth/${api}`, { client_id: client, redirect_uri: 'https://app.example/cb' });
  expect(c.status, c.text).toBe(200);
  return { api, dbId: created.body.Meta, policy, client };
}

beforeAll(async () => {
  a = await s.tenant();
  b = await s.tenant();
  ofA = await own(a);
  ofB = await own(b);
});

/** B's creates that name an id of `holder`, and the message each answers. */
const creates: Array<{ what: string; message: string; send: (holder: Owned) => Promise<Answer> }> = [
  { what: 'POST /api/apis api_id', message: 'that api_id is taken', send: (h) => s.dash(b.key, 'POST', '/api/apis', classic(h.api)) },
  {
    what: 'POST /api/apis id (database id)',
    message: 'that database id is taken',
    send: (h) => s.dash(b.key, 'POST', '/api/apis', classic(uid('fresh'), { id: h.dbId })),
  },
  {
    what: 'POST /api/apis/oas info.id',
    message: 'that api_id is taken',
    send: (h) => s.dash(b.key, 'POST', '/api/apis/oas', oasDoc(h.api, b.orgId, { gateway: { server: { listenPath: { value: `/${uid('l')}/` } } } })),
  },
  {
    what: 'POST /api/apis/oas info.dbId',
    message: 'that database id is taken',
    send: (h) =>
      s.dash(
        b.key,
        'POST',
        '/api/apis/oas',
        oasDoc(uid('fresh'), b.orgId, { info: { dbId: h.dbId }, gateway: { server: { listenPath: { value: `/${uid('l')}/` } } } }),
      ),
  },
  { what: 'POST /api/portal/policies id', message: 'that policy id is taken', send: (h) => s.dash(b.key, 'POST', '/api/portal/policies', { id: h.policy }) },
  {
    what: 'POST /api/apis/oauth/{apiID} client_id',
    message: 'that client_id is taken',
    send: (h) => s.dash(b.key, 'POST', `/api/apis/oauth/${ofB.api}`, { client_id: h.client, redirect_uri: 'https://app.example/cb' }),
  },
];

describe('a dashboard create naming an id another organisation holds', () => {
  it('answers 409 "that <id> is taken", byte for byte as for an id the caller holds itself, naming no id and no owner', async () => {
    for (const c of creates) {
      const foreign = await c.send(ofA);
      expect(foreign.status, `${c.what}: ${foreign.text}`).toBe(409);
      expect(foreign.body, c.what).toEqual({ Status: 'Error', Message: c.message, Meta: null });
      const mine = await c.send(ofB);
      expect(mine.status, `${c.what} (own id): ${mine.text}`).toBe(409);
      expect(mine.text, c.what).toBe(foreign.text);
      for (const secret of [...Object.values(ofA), a.orgId]) expect(foreign.text, c.what).not.toContain(secret);
    }
  });

  it('while reads of those ids answer 404', async () => {
    expect((await s.dash(b.key, 'GET', `/api/apis/${ofA.api}`)).status).toBe(404);
    expect((await s.dash(b.key, 'GET', `/api/apis/${ofA.dbId}`)).status).toBe(404);
    expect((await s.dash(b.key, 'GET', `/api/portal/policies/${ofA.policy}`)).status).toBe(404);
    expect((await s.dash(b.key, 'GET', `/api/apis/oauth/${ofA.api}`)).status).toBe(404);
  });
});

describe('gateway and admin creates of a taken id', () => {
  it('answer the same words in their envelopes', async () => {
    const api = await s.gw('POST', '/gw/apis', { ...classic(ofA.api).api_definition, org_id: b.orgId });
    expect([api.status, api.body]).toEqual([409, { status: 'error', message: 'that api_id is taken' }]);
    const oas = await s.gw('POST', '/gw/apis/oas', oasDoc(uid('fresh'), b.orgId, { info: { dbId: ofA.dbId } }));
    expect([oas.status, oas.body]).toEqual([409, { status: 'error', message: 'that database id is taken' }]);
    const policy = await s.gw('POST', '/gw/policies', { id: ofA.policy, org_id: b.orgId });
    expect([policy.status, policy.body]).toEqual([409, { status: 'error', message: 'that policy id is taken' }]);
    const client = await s.gw('POST', '/gw/oauth/clients/create', { api_id: ofB.api, client_id: ofA.client, redirect_uri: 'https://app.example/cb' });
    expect(client.status, client.text).toBe(409);
    expect(client.body).toEqual({ status: 'error', message: 'that client_id is taken' });
    const org = await s.admin('POST', '/admin/organisations', { id: a.orgId });
    expect([org.status, org.body]).toEqual([409, { Status: 'Error', Message: 'that organisation id is taken', Meta: null }]);
  });
});
