/**
 * The table stream's consumers on the built bundles: the stack served by `npm run emulate`, IAM
 * enforced, its stream mappings fed from DynamoDB Local's stream. Concurrent checks through the
 * check function become the month's figures through the usage consumer's own function and grants
 * (contract §14), the figures equal to what the check answered; an organisation's creation becomes
 * its audit entry through the audit consumer's (contract §12); an organisation's offboarding runs
 * through the offboarding worker's function and grants, everything of it deleted (contract §9); no
 * function is refused an action.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cloudAssembly, FULL_CONTEXT } from '../support/assembly';
import { hookBody, makeApi, makeKey, rightsFor } from '../support/fixtures';
import { byEntity, ownedBy, scanAll } from '../support/org-items';
import { linesOf, startEmulatedStage, type EmulatedStage } from '../support/stage';
import { useTestTable } from '../support/table';

let s: EmulatedStage;
// The synth shared with authorizer.test.ts and data-plane.test.ts (-c demo=on -c dataPlane=on).
beforeAll(async () => {
  s = await startEmulatedStage((await cloudAssembly(FULL_CONTEXT)).template);
}, 1_800_000);
afterAll(() => s?.close());

const month = () => new Date().toISOString().slice(0, 7);

describe('the usage figures on the emulated stack', () => {
  it('the stream feeds the usage consumer, and the month is what the check decided', async () => {
    expect(s.log.find((l) => l.trim().startsWith('streams'))).toMatch(/usageCount/);
    const { orgId } = await s.tenant();
    const apiId = await makeApi(s, orgId);
    const { key } = await makeKey(s, { org_id: orgId, access_rights: rightsFor(apiId), quota_max: 20, quota_renewal_rate: 3600 });
    const answers = await Promise.all(Array.from({ length: 24 }, () => s.gw('POST', '/gw/sessions/check', { key, api_id: apiId })));
    const allowed = answers.filter((r) => r.status === 200).length;
    expect(allowed).toBe(20);
    await vi.waitFor(
      async () => {
        const r = await s.admin('GET', `/admin/organisations/${orgId}/usage?month=${month()}`);
        expect(r.body.total).toEqual({ allowed: 20, refused: 4, refused_by_reason: { QuotaExceeded: 4 } });
      },
      { timeout: 60_000, interval: 500 },
    );
    const all = await s.admin('GET', `/admin/usage?month=${month()}&format=csv`);
    expect(all.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(all.text).toContain(`${month()},${orgId},20,4,`);
    expect(linesOf(s, 'DENIED')).toEqual([]);
  }, 120_000);

  it("the stream feeds the audit consumer: an organisation's creation is its entry, named by its actor", async () => {
    const { orgId } = await s.tenant();
    await vi.waitFor(
      async () => {
        const r = await s.admin('GET', `/admin/audit-log?object_type=organisation&object_id=${orgId}&p=-1`);
        expect(r.status).toBe(200);
        expect(r.body.entries).toEqual([expect.objectContaining({ action: 'create', actor: expect.objectContaining({ type: 'admin' }) })]);
      },
      { timeout: 60_000, interval: 500 },
    );
    expect(linesOf(s, 'DENIED')).toEqual([]);
  }, 120_000);
});

describe('offboarding on the emulated stack', () => {
  it('the stream hands the run to the offboarding worker, which deletes everything of the organisation with its own grants', async () => {
    expect(s.log.find((l) => l.trim().startsWith('streams'))).toMatch(/offboarding/);
    // This process reads the emulated stage's table too (the same DynamoDB Local): what is stored is the proof.
    await useTestTable();
    const [a, b] = [await s.tenant(), await s.tenant()];
    const apiId = await makeApi(s, a.orgId);
    const { key, hash } = await makeKey(s, { org_id: a.orgId, access_rights: rightsFor(apiId), quota_max: 20, quota_renewal_rate: 3600 });
    expect((await s.gw('POST', '/gw/sessions/check', { key, api_id: apiId })).status).toBe(200);
    expect((await s.gw('POST', '/gw/policies', { id: `p-${a.orgId}`, org_id: a.orgId, access_rights: rightsFor(apiId) })).status).toBe(200);
    expect((await s.dash(a.key, 'POST', '/api/hooks', hookBody('h'))).status).toBe(200);
    const bApi = await makeApi(s, b.orgId);
    const bKey = await makeKey(s, { org_id: b.orgId, access_rights: rightsFor(bApi) });
    const ids = [a.orgId, apiId, hash];
    // The usage rows and the audit entries arrive through the stream's consumers, after the answers: the snapshot waits for all of them
    // (the API's entry is read from its stored binary body, which Lambda delivers as base64 text).
    await vi.waitFor(
      async () => {
        expect(byEntity(ownedBy(await scanAll(s.table), ids))).toMatchObject({ usage_day: 1, usage_month: 1 });
        const trail = await s.admin('GET', `/admin/audit-log?org_id=${a.orgId}&p=-1`);
        const types = (trail.body.entries as { object: { type: string } }[]).map((e) => e.object.type);
        expect(types).toEqual(expect.arrayContaining(['organisation', 'user', 'api', 'key', 'policy', 'webhook']));
      },
      { timeout: 60_000, interval: 500 },
    );
    const owned = ownedBy(await scanAll(s.table), ids);

    expect((await s.admin('DELETE', `/admin/organisations/${a.orgId}`)).status).toBe(200);
    const done = await vi.waitFor(
      async () => {
        const run = (await s.admin('GET', `/admin/organisations/${a.orgId}/offboarding`)).body.Meta;
        expect(run.state).toBe('done');
        return run;
      },
      { timeout: 90_000, interval: 500 },
    );
    expect(done.deleted).toEqual(byEntity(owned));
    expect(ownedBy(await scanAll(s.table), ids)).toEqual([]);
    expect((await s.gw('POST', '/gw/sessions/check', { key: bKey.key, api_id: bApi })).status).toBe(200);
    expect(linesOf(s, 'DENIED')).toEqual([]);
  }, 180_000);
});
