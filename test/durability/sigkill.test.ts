/**
 * `npm run durability` inside `npm test`, so CI runs it: SIGKILL of the local stage and DynamoDB
 * Local mid-load (3 trials), then right after the last answer to a burst of 20 concurrent
 * transactional creates (5 trials here, 20 in `npm run durability`), each time a restart on the
 * same DATA_DIR and every acknowledged write read back.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

interface Trial {
  acknowledged: number;
  acknowledged_total: number;
  verified: number;
  lost: number;
}

describe('durability under SIGKILL', () => {
  it('keeps every acknowledged write across three kills mid-load and five kills right after a burst of transactions', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'gw-durability-')), 'durability.json');
    const run = spawnSync(process.execPath, ['--import', 'tsx', resolve('scripts/durability.ts')], {
      env: { ...process.env, DURABILITY_OUT: out, DURABILITY_BURST_TRIALS: '5', LOCAL_COMMIT_WAIT: '' },
      encoding: 'utf8',
      timeout: 300_000,
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    rmSync(dirname(out), { recursive: true, force: true });
    const report = JSON.parse(text) as {
      all_acknowledged_writes_survived: boolean;
      local_commit_wait: string;
      trials: Trial[];
      burst_size: number;
      burst_trials: (Trial & { rejected: number })[];
    };
    expect(report.local_commit_wait).toBe('on');
    expect(report.trials).toHaveLength(3);
    expect(report.burst_trials).toHaveLength(5);
    expect(report.all_acknowledged_writes_survived).toBe(true);
    for (const t of [...report.trials, ...report.burst_trials]) {
      expect(t.acknowledged).toBeGreaterThan(0);
      expect(t.lost).toBe(0);
      expect(t.verified).toBe(t.acknowledged_total);
    }
    // Every create of a burst was answered 200: the kill followed a full burst of acknowledged transactions.
    for (const b of report.burst_trials) expect(b.acknowledged).toBe(report.burst_size);
  }, 360_000);
});
