/**
 * Contract §14: the usage figures count every decision once across a killed stage. A first stage
 * counts some checks and is SIGKILLed; a second, whose change feed reads the stream once at its
 * start and then not for ten minutes (CHANGE_FEED_POLL_MS), answers more checks (allowed and
 * refused) and is SIGKILLed with them not counted; a third on the same DATA_DIR and table resumes
 * from the kept position and counts the rest, each once. A fourth start whose position is lost
 * (usage-feed.json removed) reads the whole stream again: the figures do not move, because each
 * counted item's position is kept with the figures.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadOrgMonth } from '../../shared/store/usage-figures';
import { makeApi, makeKey, rightsFor } from '../support/fixtures';
import { spawnStage, stageAt, type SpawnedStage, type Stage } from '../support/stage';
import { useTestTable } from '../support/table';

const dataDir = mkdtempSync(join(tmpdir(), 'gw-usage-restart-'));
const spawned: SpawnedStage[] = [];
afterAll(async () => {
  await Promise.all(spawned.map((p) => p.stop('SIGKILL')));
  rmSync(dataDir, { recursive: true, force: true });
});

const month = () => new Date().toISOString().slice(0, 7);

/** The organisation's month once its figures are `total`: read until they are, within 60 s. */
function figures(s: Stage, orgId: string, total: { allowed: number; refused: number }) {
  return vi.waitFor(
    async () => {
      const r = await s.admin('GET', `/admin/organisations/${orgId}/usage?month=${month()}`);
      expect(r.status).toBe(200);
      expect({ allowed: r.body.total.allowed, refused: r.body.total.refused }).toEqual(total);
      return r.body;
    },
    { timeout: 60_000, interval: 250 },
  );
}

describe('the usage figures across a killed stage', () => {
  it('resume where the killed stage stopped, and a lost position reads the stream again without counting twice', async () => {
    const table = await useTestTable();
    const env = { TABLE_NAME: table, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT, CHANGE_FEED_POLL_MS: '100' };
    const first = await spawnStage({ dataDir, env });
    spawned.push(first);
    let s = stageAt(first.url, table, async () => {});
    const t = await s.tenant();
    const apiId = await makeApi(s, t.orgId);
    const { key } = await makeKey(s, { org_id: t.orgId, access_rights: rightsFor(apiId), quota_max: 50, quota_renewal_rate: 3600 });
    const checks = (n: number) => Promise.all(Array.from({ length: n }, () => s.gw('POST', '/gw/sessions/check', { key, api_id: apiId })));

    // Counted while the first stage runs.
    expect((await checks(10)).every((r) => r.status === 200)).toBe(true);
    await figures(s, t.orgId, { allowed: 10, refused: 0 });
    await first.stop('SIGKILL');

    // Answered by a stage whose feed is not reading, then killed: not counted (or only in part).
    const second = await spawnStage({ dataDir, env: { ...env, CHANGE_FEED_POLL_MS: '600000' } });
    spawned.push(second);
    s = stageAt(second.url, table, async () => {});
    const answers = await checks(45);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(40);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(5);
    await second.stop('SIGKILL');
    expect(existsSync(join(dataDir, 'usage-feed.json'))).toBe(true);
    const stored = (await loadOrgMonth(t.orgId, month())).reduce((n, d) => n + d.figures.allowed, 0);
    expect(stored).toBeLessThan(50);

    const third = await spawnStage({ dataDir, env });
    spawned.push(third);
    s = stageAt(third.url, table, async () => {});
    const caughtUp = await figures(s, t.orgId, { allowed: 50, refused: 5 });
    expect(caughtUp.total.refused_by_reason).toEqual({ QuotaExceeded: 5 });
    await third.stop('SIGKILL');

    // The position is lost: the whole stream is read again, and counts nothing twice.
    rmSync(join(dataDir, 'usage-feed.json'));
    const fourth = await spawnStage({ dataDir, env });
    spawned.push(fourth);
    s = stageAt(fourth.url, table, async () => {});
    // A refusal after the restart: once it is counted, the stream before it has been read again.
    expect((await checks(1))[0]!.status).toBe(429);
    await figures(s, t.orgId, { allowed: 50, refused: 6 });
    expect(existsSync(join(dataDir, 'usage-feed.json'))).toBe(true);
  }, 240_000);
});
