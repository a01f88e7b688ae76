/**
 * The console's build (console/host/build.ts): it lands whole in its folder with the stamp of its
 * inputs, a build of the same inputs is not made again, and a lock left by a builder that died (a
 * stage stopped during its build) is taken over instead of waited on.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildConsole, buildConsoleInBackground, isConsoleFresh, STAMP_FILE } from '../../console/host/build';

const root = mkdtempSync(join(tmpdir(), 'console-build-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("takes over a dead builder's lock, lands the build whole with its stamp, and does not build the same inputs again", async () => {
  const outDir = join(root, 'dist');
  const lock = join(root, '.dist-building');
  const dead = spawnSync(process.execPath, ['-e', '0']).pid;
  mkdirSync(join(lock, 'out'), { recursive: true });
  writeFileSync(join(lock, 'pid'), String(dead));
  writeFileSync(join(lock, 'out', 'half-written.js'), '');

  expect(buildConsole(outDir, { ifStale: true })).toBe(true);
  expect(existsSync(lock)).toBe(false);
  expect(readdirSync(outDir)).toEqual(expect.arrayContaining(['index.html', 'assets', STAMP_FILE]));
  expect(readdirSync(outDir)).not.toContain('half-written.js');
  expect(isConsoleFresh(outDir)).toBe(true);

  expect(buildConsole(outDir, { ifStale: true })).toBe(false);
  expect(await buildConsoleInBackground(outDir)).toBe(false);
}, 300_000);
