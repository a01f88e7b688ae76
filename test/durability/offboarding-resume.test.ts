/**
 * Contract §9: an offboarding survives its worker's crash. A stage deletes an organisation with
 * 300 keys and 30 APIs and is SIGKILLed half-way; the next stage on the same
 * DATA_DIR and table goes on from the run's last transaction (its change feed hands the run over
 * again). At the end every item the organisation owned is gone, each counted exactly once, and the
 * other organisation's items and checks are as they were.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { makeApi, makeKey, rightsFor } from '../support/fixtures';
import { byEntity, names, ownedBy, scanAll } from '../support/org-items';
import { spawnStage, stageAt, type SpawnedStage, type Stage } from '../support/stage';
import { useTestTable } from '../support/table';
import { mapLimit } from '../../shared/lib/concurrency';

const dataDir = mkdtempSync(join(tmpdir(), 'gw-offboarding-restart-'));
const spawned: SpawnedStage[] = [];
afterAll(async () => {
  await Promise.all(spawned.map((p) => p.stop('SIGKILL')));
  rmSync(dataDir, { recursive: true, force: true });
});

const KEYS = 300;
const APIS = 30;

const runOf = async (s: Stage, orgId: string) => (await s.admin('GET', `/admin/organisations/${orgId}/offboarding`)).body.Meta;

describe('an offboarding across a killed stage', () => {
  it('goes on from its last transaction: everything of the organisation deleted, each item counted once, the other untouched', async () => {
    const table = await useTestTable();
    // Caches of 0 s: the run starts deleting a second after DELETE.
    const env = { TABLE_NAME: table, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT, CHANGE_FEED_POLL_MS: '50', CACHE_SECONDS: '0' };
    const first = await spawnStage({ dataDir, env });
    spawned.push(first);
    let s = stageAt(first.url, table, async () => {});
    const [a, b] = [await s.tenant(), await s.tenant()];
    const apis = await mapLimit(
      Array.from({ length: APIS }, (_, i) => i),
      8,
      (i) => makeApi(s, a.orgId, `api${i}`),
    );
    const keys = await mapLimit(
      Array.from({ length: KEYS }, (_, i) => i),
      16,
      (i) => makeKey(s, { org_id: a.orgId, access_rights: rightsFor(apis[i % APIS]!) }),
    );
    const bApi = await makeApi(s, b.orgId, 'b');
    const bKey = await makeKey(s, { org_id: b.orgId, access_rights: rightsFor(bApi) });
    expect((await s.gw('POST', '/gw/sessions/check', { key: bKey.key, api_id: bApi })).status).toBe(200);

    const before = await scanAll(table);
    const ids = [a.orgId, ...apis, ...keys.map((k) => k.hash)];
    const owned = ownedBy(before, ids);
    const others = before.filter((i) => !names(i, ids));
    expect(owned.length).toBeGreaterThan(2 * KEYS);

    expect((await s.admin('DELETE', `/admin/organisations/${a.orgId}`)).status).toBe(200);
    // Killed once the run has deleted something and before it is done.
    await vi.waitFor(
      async () => {
        const run = await runOf(s, a.orgId);
        expect(run.deleted_total).toBeGreaterThan(0);
      },
      { timeout: 60_000, interval: 20 },
    );
    await first.stop('SIGKILL');
    const cut = await scanAll(table);
    const deletedBefore = owned.length - ownedBy(cut, ids).length;
    expect(deletedBefore).toBeGreaterThan(0);
    expect(deletedBefore, 'the stage was killed after the run ended: the test proves nothing').toBeLessThan(owned.length);

    const second = await spawnStage({ dataDir, env });
    spawned.push(second);
    s = stageAt(second.url, table, async () => {});
    const done = await vi.waitFor(
      async () => {
        // A stage that died answers ECONNREFUSED until the wait ends; this says why instead.
        second.assertRunning();
        const run = await runOf(s, a.orgId);
        expect(run.state).toBe('done');
        return run;
      },
      { timeout: 400_000, interval: 100 },
    );

    expect(done.deleted).toEqual(byEntity(owned));
    expect(done.deleted_total).toBe(owned.length);
    const after = await scanAll(table);
    expect(ownedBy(after, ids)).toEqual([]);
    const stillThere = new Set(after.map((i) => `${String(i.PK)}\n${String(i.SK)}`));
    expect(others.filter((i) => !stillThere.has(`${String(i.PK)}\n${String(i.SK)}`)).map((i) => i.entity)).toEqual([]);
    expect((await s.gw('POST', '/gw/sessions/check', { key: bKey.key, api_id: bApi })).status).toBe(200);
    expect((await s.gw('POST', '/gw/sessions/check', { key: keys[0]!.key, api_id: apis[0] })).status).toBe(403);
  }, 600_000);
});
