/**
 * `npm run durability` inside `npm test`, so CI runs it: SIGKILL of the local stage and DynamoDB
 * Local mid-load, restart on the same DATA_DIR, every acknowledged write read back (3 trials).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('durability under SIGKILL', () => {
  it('keeps every acknowledged write across three kills', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'gw-durability-')), 'durability.json');
    const run = spawnSync(process.execPath, ['--import', 'tsx', resolve('scripts/durability.ts')], {
      env: { ...process.env, DURABILITY_OUT: out },
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(out, 'utf8')) as {
      all_acknowledged_writes_survived: boolean;
      trials: { acknowledged: number; acknowledged_total: number; verified: number; lost: number }[];
    };
    expect(report.trials).toHaveLength(3);
    expect(report.all_acknowledged_writes_survived).toBe(true);
    for (const t of report.trials) {
      expect(t.acknowledged).toBeGreaterThan(0);
      expect(t.lost).toBe(0);
      expect(t.verified).toBe(t.acknowledged_total);
    }
  }, 300_000);
});
