import { beforeAll, describe, expect, it } from 'vitest';
import { useStage } from '../support/file-stage';
import { makeApi, makeKey, rightsFor } from '../support/fixtures';

const s = useStage();
let orgId: string;
let apiId: string;
beforeAll(async () => {
  orgId = (await s.tenant()).orgId;
  apiId = await makeApi(s, orgId);
});

const uid = (p: string) => `${p}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

describe('policies (POST /gw/policies, GET/PUT/DELETE /gw/policies/{policyID})', () => {
  it('creates under the client id, reads, replaces (keeping _id and date_created) and deletes', async () => {
    const id = uid('gold');
    const r = await s.gw('POST', '/gw/policies', {
      id,
      name: 'Gold',
      org_id: orgId,
      rate: 10,
      per: 1,
      quota_max: 100,
      access_rights: rightsFor(apiId),
      extra_member: 1,
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ key: id, status: 'ok', action: 'added' });
    const got = await s.gw('GET', `/gw/policies/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id, name: 'Gold', rate: 10, extra_member: 1 });
    expect(got.body._id).toMatch(/^[0-9a-f]{24}$/);
    const put = await s.gw('PUT', `/gw/policies/${id}`, { id, name: 'Gold 2', rate: 20, per: 1 }, { 'if-match': got.headers.get('etag')! });
    expect(put.status).toBe(200);
    const after = await s.gw('GET', `/gw/policies/${id}`);
    expect(after.body).toMatchObject({ id, name: 'Gold 2', rate: 20, _id: got.body._id, date_created: got.body.date_created });
    expect(after.body.quota_max).toBeUndefined();
    expect((await s.gw('PUT', `/gw/policies/${id}`, { id: 'another', name: 'x' })).status).toBe(400);
    expect((await s.gw('PUT', '/gw/policies/no-such-policy', { id: 'no-such-policy' })).status).toBe(404);
    expect((await s.gw('DELETE', `/gw/policies/${id}`)).status).toBe(200);
    expect((await s.gw('GET', `/gw/policies/${id}`)).status).toBe(404);
  });

  it('requires an id (400), checks its charset (400), refuses a duplicate (409) and bad smoothing/partitions (400)', async () => {
    const missing = await s.gw('POST', '/gw/policies', { name: 'no id' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].path).toBe('body.id');
    expect((await s.gw('POST', '/gw/policies', { id: 'bad#id' })).status).toBe(400);
    expect((await s.gw('POST', '/gw/policies', { id: 'bad/id' })).status).toBe(400);
    const id = uid('dup');
    expect((await s.gw('POST', '/gw/policies', { id, name: 'first' })).status).toBe(200);
    const dup = await s.gw('POST', '/gw/policies', { id, name: 'second' });
    expect(dup.status).toBe(409);
    expect((await s.gw('GET', `/gw/policies/${id}`)).body.name).toBe('first');
    const smoothing = await s.gw('POST', '/gw/policies', { id: uid('sm'), smoothing: { enabled: true, step: 0, delay: 1, threshold: 1, trigger: 0.5 } });
    expect(smoothing.status).toBe(400);
    expect(smoothing.body.errors[0].path).toBe('body.smoothing.step');
    const trigger = await s.gw('POST', '/gw/policies', { id: uid('sm'), smoothing: { trigger: 0.555 } });
    expect(trigger.status).toBe(400);
    const parts = await s.gw('POST', '/gw/policies', { id: uid('pp'), partitions: { per_api: true, quota: true } });
    expect(parts.status).toBe(400);
  });
});

describe('policy import (POST /admin/policies/import)', () => {
  it('imports three policies under their ids; Meta maps each id to true', async () => {
    const ids = [uid('imp-a'), uid('imp-b'), uid('imp-c')];
    const r = await s.admin('POST', '/admin/policies/import', { Data: ids.map((id, i) => ({ id, name: `P${i}`, rate: i + 1, per: 1 })), Pages: 1 });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ Status: 'OK', Message: 'Policies imported', Meta: Object.fromEntries(ids.map((id) => [id, true])) });
    for (const [i, id] of ids.entries()) expect((await s.gw('GET', `/gw/policies/${id}`)).body).toMatchObject({ id, name: `P${i}` });
  });

  it('keeps the _id of an exported policy with a blank id', async () => {
    const _id = '5e1f1e1f1e1f1e1f1e1f1e1f';
    const r = await s.admin('POST', '/admin/policies/import', { Data: [{ _id, id: '', name: 'exported' }] });
    expect(r.status).toBe(200);
    expect((await s.gw('GET', `/gw/policies/${_id}`)).body).toMatchObject({ _id, id: _id, name: 'exported' });
  });

  it('writes none when one policy is invalid', async () => {
    const ok1 = uid('ok1');
    const ok2 = uid('ok2');
    const r = await s.admin('POST', '/admin/policies/import', { Data: [{ id: ok1 }, { id: 'bad id!' }, { id: ok2 }] });
    expect(r.status).toBe(400);
    expect(r.body.Meta.errors[0].path).toBe('body.Data.1.id');
    expect((await s.gw('GET', `/gw/policies/${ok1}`)).status).toBe(404);
    expect((await s.gw('GET', `/gw/policies/${ok2}`)).status).toBe(404);
  });
});

describe('keys under policies', () => {
  it('a key with a policy takes its rights, rate and quota', async () => {
    const id = uid('pol');
    await s.gw('POST', '/gw/policies', { id, org_id: orgId, access_rights: rightsFor(apiId), rate: 100, per: 60, quota_max: 3, quota_renewal_rate: 3600 });
    const { key } = await makeKey(s, { org_id: orgId, apply_policies: [id], quota_max: 1000, rate: 1, per: 1 });
    const results = [];
    for (let i = 0; i < 5; i++) results.push((await s.gw('POST', '/gw/sessions/check', { key, api_id: apiId })).status);
    // The policy's quota (3) governs, not the key's own 1000; its rate (100/60 s) lets all five through to the quota.
    expect(results).toEqual([200, 200, 200, 429, 429]);
    expect((await s.gw('GET', `/gw/keys/${key}`)).body.quota_remaining).toBe(0);
  });

  it("a key with a per_api policy spends that API's own limit", async () => {
    const other = await makeApi(s, orgId, 'perapi');
    const id = uid('perapi');
    const rights = rightsFor(apiId, other);
    rights[other] = { ...rights[other], limit: { quota_max: 1, quota_renewal_rate: 3600 } } as never;
    await s.gw('POST', '/gw/policies', { id, partitions: { per_api: true }, access_rights: rights, quota_max: 4, quota_renewal_rate: 3600 });
    const { key } = await makeKey(s, { org_id: orgId, apply_policies: [id] });
    const check = (api: string) => s.gw('POST', '/gw/sessions/check', { key, api_id: api });
    expect((await check(other)).status).toBe(200);
    expect((await check(other)).status).toBe(429);
    for (let i = 0; i < 4; i++) expect((await check(apiId)).status).toBe(200);
    expect((await check(apiId)).status).toBe(429);
  });
});
