/**
 * One format and one set of lint rules (biome.jsonc, docs/developing/tests.md): Biome reports no file to
 * format and no lint finding, warnings included. `npm run format` writes the format;
 * `npm run lint` shows what this test found.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve('.');
const CLI = join(ROOT, 'node_modules/@biomejs/biome/bin/biome');

it('Biome finds nothing to format and no lint finding', () => {
  const run = spawnSync(process.execPath, [CLI, 'ci', '--error-on-warnings', '--colors=off', '--max-diagnostics=50', '.'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
});
