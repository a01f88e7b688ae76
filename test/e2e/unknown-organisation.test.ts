/**
 * Writes that name an organisation that does not exist (contract §3): 422, nothing stored, and
 * an organisation created later with that id inherits nothing. A blank organisation (keys and
 * APIs the gateway manages itself, policies for gateway writes only) stays allowed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useStage } from '../support/file-stage';
import { makeApi, oasDoc, rightsFor, uid } from '../support/fixtures';
import { diffSnapshots, snapshotTable } from '../hardening/support/snapshot';

const s = useStage();
let orgId: string;
let apiId: string;
beforeAll(async () => {
  orgId = (await s.tenant()).orgId;
  apiId = await makeApi(s, orgId);
});

const classic = (id: string, org: string) => ({ api_id: id, name: id, org_id: org, proxy: { listen_path: `/${id}/`, target_url: 'http://up.example' } });

describe('gateway writes naming no organisation', () => {
  it('answer 422 unknown organisation and store nothing; the organisation created afterwards inherits nothing', async () => {
    const ghost = uid('ghostorg');
    const before = await snapshotTable(s.table);
    const writes = [
      await s.gw('POST', '/gw/keys/create', { org_id: ghost, access_rights: rightsFor(apiId) }),
      await s.gw('POST', '/gw/policies', { id: uid('ghost-pol'), name: 'g', org_id: ghost }),
      await s.gw('POST', '/gw/apis', classic(uid('ghost-classic'), ghost)),
      await s.gw('POST', '/gw/apis/oas', oasDoc(uid('ghost-oas'), ghost)),
      await s.admin('POST', '/admin/policies/import', { Data: [{ id: uid('ghost-imp'), org_id: ghost }] }),
    ];
    for (const r of writes) {
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(JSON.stringify(r.body)).toContain(`organisation ${ghost} does not exist`);
    }
    expect(diffSnapshots(before, await snapshotTable(s.table))).toEqual([]);

    expect((await s.admin('POST', '/admin/organisations', { id: ghost })).status).toBe(200);
    const user = await s.admin('POST', '/admin/users', { org_id: ghost, email_address: `${ghost}@example.com` });
    const dash = user.body.Meta.access_key as string;
    expect((await s.dash(dash, 'GET', '/api/apis')).body.apis).toEqual([]);
  });

  it('refuses moving an API or a policy to an organisation that does not exist (422), leaving it as it was', async () => {
    const id = uid('mover');
    expect((await s.gw('POST', '/gw/apis/oas', oasDoc(id, orgId))).status).toBe(200);
    const moved = await s.gw('PUT', `/gw/apis/oas/${id}`, oasDoc(id, uid('nowhere')));
    expect(moved.status, JSON.stringify(moved.body)).toBe(422);
    expect((await s.gw('GET', `/gw/apis/${id}`)).body.org_id).toBe(orgId);

    const pol = uid('pol-mover');
    expect((await s.gw('POST', '/gw/policies', { id: pol, org_id: orgId })).status).toBe(200);
    const to = uid('nowhere');
    const put = await s.gw('PUT', `/gw/policies/${pol}`, { id: pol, org_id: to });
    expect(put.status, JSON.stringify(put.body)).toBe(422);
    const got = await s.gw('GET', `/gw/policies/${pol}`);
    expect(got.body.org_id).toBe(orgId);
    expect(got.headers.get('etag')).toBe('"1"');
    // Within the organisation it already names, a replace checks nothing more.
    expect((await s.gw('PUT', `/gw/policies/${pol}`, { id: pol, org_id: orgId, name: 'kept' })).status).toBe(200);
  });

  it('keeps a blank organisation allowed where it was: gateway-managed keys, APIs and policies', async () => {
    const key = await s.gw('POST', '/gw/keys/create', { org_id: '', access_rights: rightsFor(apiId) });
    expect(key.status, JSON.stringify(key.body)).toBe(200);
    expect(key.body.key).toMatch(/^[0-9a-f]{32}$/);
    expect((await s.gw('POST', '/gw/keys/create', { access_rights: rightsFor(apiId) })).status).toBe(200);
    expect((await s.gw('POST', '/gw/policies', { id: uid('blank-pol'), name: 'b' })).status).toBe(200);
    const bare = uid('blank-api');
    expect((await s.gw('POST', '/gw/apis', { api_id: bare, name: bare, proxy: { listen_path: `/${bare}/`, target_url: 'http://up.example' } })).status).toBe(
      200,
    );
  });

  it('still creates keys and APIs for an organisation that exists (the check passes, it does not refuse everything)', async () => {
    const ok = await s.gw('POST', '/gw/keys/create', { org_id: orgId, access_rights: rightsFor(apiId) });
    expect(ok.status).toBe(200);
    expect(ok.body.key.startsWith(orgId)).toBe(true);
    expect((await makeApi(s, orgId)).length).toBeGreaterThan(0);
  });
});
