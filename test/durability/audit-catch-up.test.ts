/**
 * Contract §12: the audit trail has no gaps and no duplicates across a killed stage. A first stage
 * audits some changes and is SIGKILLed; a second, whose change feed reads the stream once at its
 * start and then not for ten minutes (CHANGE_FEED_POLL_MS), answers more changes and is SIGKILLed
 * with them not (all) audited; a third on the same DATA_DIR and table resumes from the kept
 * position and audits the rest, each change once. A fourth start whose position is lost
 * (audit-feed.json removed) reads the whole stream again: every entry is still there exactly once,
 * because an entry is keyed by its stream record.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadAuditPage } from '../../shared/store/audit-log';
import { uid } from '../support/fixtures';
import { spawnStage, stageAt, type SpawnedStage, type Stage } from '../support/stage';
import { useTestTable } from '../support/table';

const dataDir = mkdtempSync(join(tmpdir(), 'gw-audit-restart-'));
const spawned: SpawnedStage[] = [];
afterAll(async () => {
  await Promise.all(spawned.map((p) => p.stop('SIGKILL')));
  rmSync(dataDir, { recursive: true, force: true });
});

type Entry = { id: string; action: string; object: { type: string; id: string }; request_id: string };

/**
 * The organisation's entries (oldest first) once there are at least `count`. The stage is another
 * process, whose feed this one cannot ask: the entries are read until they are there, within 60 s.
 */
function entries(s: Stage, orgId: string, count: number): Promise<Entry[]> {
  return vi.waitFor(
    async () => {
      const r = await s.admin('GET', `/admin/audit-log?org_id=${orgId}&p=-1`);
      expect(r.status).toBe(200);
      const found = (r.body.entries as Entry[]).slice().reverse();
      expect(found.length).toBeGreaterThanOrEqual(count);
      return found;
    },
    { timeout: 60_000, interval: 250 },
  );
}

/** What each change should have made: per object, its actions in order. */
const lives = (list: Entry[]) => {
  const out: Record<string, string[]> = {};
  for (const e of list) (out[`${e.object.type} ${e.object.id}`] ??= []).push(e.action);
  return out;
};

describe('the audit trail across a killed stage', () => {
  it('resumes where the killed stage stopped, and a lost position reads the stream again without a duplicate', async () => {
    const table = await useTestTable();
    const env = { TABLE_NAME: table, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT, CHANGE_FEED_POLL_MS: '100' };
    const first = await spawnStage({ dataDir, env });
    spawned.push(first);
    let s = stageAt(first.url, table, async () => {});
    const t = await s.tenant();
    const policy = (id: string, name: string) => ({ id, name, org_id: t.orgId, access_rights: {} });
    const expected: Record<string, string[]> = { [`organisation ${t.orgId}`]: ['create'], [`user ${t.userId}`]: ['create'] };

    // Audited while the first stage runs.
    const early = Array.from({ length: 5 }, () => uid('early'));
    for (const id of early) {
      expect((await s.gw('POST', '/gw/policies', policy(id, 'v1'))).status).toBe(200);
      expected[`policy ${id}`] = ['create'];
    }
    expect(await entries(s, t.orgId, 7)).toHaveLength(7);
    await first.stop('SIGKILL');

    // Answered by a stage whose feed is not reading, then killed: not audited (or only in part).
    const second = await spawnStage({ dataDir, env: { ...env, CHANGE_FEED_POLL_MS: '600000' } });
    spawned.push(second);
    s = stageAt(second.url, table, async () => {});
    const late = Array.from({ length: 20 }, () => uid('late'));
    await Promise.all(
      late.map(async (id) => {
        expect((await s.gw('POST', '/gw/policies', policy(id, 'v1'))).status).toBe(200);
        expect((await s.gw('PUT', `/gw/policies/${id}`, policy(id, 'v2'))).status).toBe(200);
        expected[`policy ${id}`] = ['create', 'update'];
      }),
    );
    for (const id of early.slice(0, 2)) {
      expect((await s.gw('DELETE', `/gw/policies/${id}`)).status).toBe(200);
      expected[`policy ${id}`] = ['create', 'delete'];
    }
    await second.stop('SIGKILL');
    const total = Object.values(expected).flat().length;
    expect(existsSync(join(dataDir, 'audit-feed.json'))).toBe(true);
    const before = (await loadAuditPage({ orgId: t.orgId }, { mode: 'all' })).entries.length;
    expect(before).toBeGreaterThanOrEqual(7);
    expect(before).toBeLessThan(total);

    const third = await spawnStage({ dataDir, env });
    spawned.push(third);
    s = stageAt(third.url, table, async () => {});
    const caughtUp = await entries(s, t.orgId, total);
    expect(lives(caughtUp)).toEqual(expected);
    expect(caughtUp).toHaveLength(total);
    // Deletes name who deleted, even when read after a restart.
    for (const e of caughtUp) expect(e.request_id).toEqual(expect.any(String));
    await third.stop('SIGKILL');

    // The position is lost: the whole stream is read again, and makes nothing twice.
    rmSync(join(dataDir, 'audit-feed.json'));
    const fourth = await spawnStage({ dataDir, env });
    spawned.push(fourth);
    s = stageAt(fourth.url, table, async () => {});
    // A change after the restart: once it is audited, the stream before it has been read again.
    const marker = uid('marker');
    expect((await s.gw('POST', '/gw/policies', policy(marker, 'v1'))).status).toBe(200);
    expected[`policy ${marker}`] = ['create'];
    const reread = await entries(s, t.orgId, total + 1);
    expect(lives(reread)).toEqual(expected);
    expect(reread.map((e) => e.id).slice(0, total)).toEqual(caughtUp.map((e) => e.id));
    expect(existsSync(join(dataDir, 'audit-feed.json'))).toBe(true);
  }, 240_000);
});
