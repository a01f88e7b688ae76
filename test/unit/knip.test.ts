/**
 * No dead code (docs/developing/tests.md): knip, configured in knip.ts (entries: the route table's handler
 * files, the functions the stack names, the CDK apps, the local stages, scripts, bench and tests),
 * finds no unused file, export, exported type or dependency, and no dependency used but unlisted.
 * An export used only in its own module is a finding too: it becomes non-exported.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve('.');
const CLI = join(ROOT, 'node_modules/knip/bin/knip.js');

it('knip finds no unused file, export, type or dependency', () => {
  const run = spawnSync(process.execPath, [CLI, '--no-progress', '--no-config-hints'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(`${run.stdout}${run.stderr}`.trim(), 'knip findings (npx knip; an export used only in its own file loses `export`)').toBe('');
  expect(run.status).toBe(0);
});
