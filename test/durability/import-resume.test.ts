/**
 * Contract §9: an import survives a crash anywhere. A stage imports an organisation of 1,200 keys
 * and is SIGKILLed once its run has moved and before it is done, in the middle of a stretch: once in
 * the background (`background=true`), once in the import's own request, before it handed the run
 * over. The next stage on the same DATA_DIR and table goes on from the run's last move (its change
 * feed hands the run over again; a run its request held is taken over when the hold passes), finds
 * what the killed one wrote of its stretch, and ends `done`: every object of the file stored once,
 * the counts exact, the export the file's objects, another organisation untouched.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ddb } from '../../shared/store/db/client';
import { fullOrgFile, makeApi, makeKey, rightsFor, uid } from '../support/fixtures';
import { names, scanAll } from '../support/org-items';
import { spawnStage, stageAt, type SpawnedStage, type Stage } from '../support/stage';
import { useTestTable } from '../support/table';

const dataDir = mkdtempSync(join(tmpdir(), 'gw-import-restart-'));
const spawned: SpawnedStage[] = [];
afterAll(async () => {
  await Promise.all(spawned.map((p) => p.stop('SIGKILL')));
  rmSync(dataDir, { recursive: true, force: true });
});

const KEYS = 1200;

const runOf = async (s: Stage, orgId: string) => (await s.admin('GET', `/admin/organisations/${orgId}/import`)).body.Meta;

/** A stage of its own over a fresh table, another organisation with a key on it, and the file of an organisation of KEYS + 1 keys. */
async function setUp(tag: string) {
  const table = await useTestTable();
  const env = { TABLE_NAME: table, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT, CHANGE_FEED_POLL_MS: '50' };
  const dir = join(dataDir, tag);
  const first = await spawnStage({ dataDir: dir, env });
  spawned.push(first);
  const s = stageAt(first.url, table, async () => {});
  const other = await s.tenant();
  const otherApi = await makeApi(s, other.orgId, 'b');
  const otherKey = await makeKey(s, { org_id: other.orgId, access_rights: rightsFor(otherApi) });
  const others = (await scanAll(table)).filter((i) => names(i, [other.orgId]));
  const orgId = uid('moving');
  const file = fullOrgFile(orgId);
  const [template] = file.keys;
  const hashes = Array.from({ length: KEYS }, (_, i) => createHash('sha256').update(`${orgId}/${i}`).digest('hex'));
  file.keys = [template!, ...hashes.map((key_hash) => ({ session: { ...template!.session, key_hash } }))];
  const restart = async () => {
    const second = await spawnStage({ dataDir: dir, env });
    spawned.push(second);
    return stageAt(second.url, table, async () => {});
  };
  const expectWhole = async (s: Stage) => {
    const held = (await scanAll(table)).filter((i) => names(i, [orgId]));
    const keys = held.filter((i) => i.entity === 'key').map((i) => (i.session as { key_hash: string }).key_hash);
    expect(keys.sort()).toEqual([template!.session.key_hash, ...hashes].sort());
    // Each key's quota (a key's own items name its hash, not the organisation).
    const all = new Set([template!.session.key_hash, ...hashes]);
    const quotas = (await scanAll(table)).filter((i) => i.entity === 'live_quota' && all.has(String(i.PK).replace(/^KEY#/, '')));
    expect(quotas).toHaveLength(KEYS + 1);
    const counts = Object.fromEntries(held.filter((i) => i.entity === 'counter').map((i) => [String(i.SK), i.n]));
    expect(counts).toMatchObject({ 'COUNT#KEY': KEYS + 1, 'COUNT#API': 1, 'COUNT#USER': 1 });
    const exported = await s.admin('GET', `/admin/organisations/${orgId}/export`);
    expect(exported.body.keys).toHaveLength(KEYS + 1);
    // The other organisation's items are as they were, and its key checks.
    const still = new Set((await scanAll(table)).map((i) => `${String(i.PK)}\n${String(i.SK)}`));
    expect(others.filter((i) => !still.has(`${String(i.PK)}\n${String(i.SK)}`))).toEqual([]);
    expect((await s.gw('POST', '/gw/sessions/check', { key: otherKey.key, api_id: otherApi })).status).toBe(200);
  };
  const cutRun = async () => {
    const cut = (await scanAll(table)).filter((i) => i.entity === 'import_run' && i.org_id === orgId)[0]!;
    expect(cut.state, 'the stage was killed after the run ended: the test proves nothing').toBe('importing');
    return cut;
  };
  return { first, s, orgId, file, table, restart, expectWhole, cutRun };
}

const ended = (s: Stage, orgId: string) =>
  vi.waitFor(
    async () => {
      const run = await runOf(s, orgId);
      expect(run.state).toBe('done');
      return run;
    },
    { timeout: 400_000, interval: 200 },
  );

describe('an import across a killed stage', () => {
  it('in the background, goes on from its last move: every object stored once, counts exact, the other organisation untouched', async () => {
    const { first, s, orgId, file, restart, expectWhole, cutRun } = await setUp('background');
    const r = await s.admin('POST', '/admin/organisations/import?background=true', file);
    expect(r.status, r.text).toBe(200);
    expect(r.body.Meta.state).toBe('importing');
    const total = (await runOf(s, orgId)).total;
    // Killed once the run has moved at least once and before it is done.
    await vi.waitFor(async () => expect((await runOf(s, orgId)).written).toBeGreaterThan(0), { timeout: 120_000, interval: 20 });
    await first.stop('SIGKILL');
    expect(Number((await cutRun()).position)).toBeLessThan(total);
    const second = await restart();
    expect(await ended(second, orgId)).toMatchObject({ written: total, total, reason: null });
    await expectWhole(second);
  }, 600_000);

  it('killed in its request, before the hand-over: the worker takes the run over once its hold passes', async () => {
    const { first, s, orgId, file, table, restart, expectWhole, cutRun } = await setUp('request');
    // The request never answers: its stage dies under it once the organisation's first write is
    // made (the run says so), with the request's first objects in flight, long before its 20 s.
    const asked = s.admin('POST', '/admin/organisations/import', file).catch(() => undefined);
    const restored = async () => (await ddb().send(new GetCommand({ TableName: table, Key: { PK: `IMPORT#${orgId}`, SK: 'RUN' } }))).Item?.restored;
    await vi.waitFor(async () => expect(await restored()).toBe(true), { timeout: 120_000, interval: 20 });
    await first.stop('SIGKILL');
    await asked;
    expect(await cutRun()).toMatchObject({ restored: true, handed_over_at: null });
    const second = await restart();
    const done = await ended(second, orgId);
    expect(done).toMatchObject({ written: done.total, reason: null, handed_over_at: expect.any(String) });
    await expectWhole(second);
  }, 600_000);
});
