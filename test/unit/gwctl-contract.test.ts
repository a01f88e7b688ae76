/**
 * gwctl starts from the package's bin as `npx gwctl` does, with no build step (its copy of the
 * service's document under tools/gwctl/generated/ is checked by test/unit/generated-files.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

it('npx gwctl --help answers from the bin of package.json, with no build step', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { bin: Record<string, string> };
  expect(pkg.bin.gwctl).toBe('tools/gwctl/bin.mjs');
  const r = spawnSync('npx', ['--no-install', 'gwctl', '--help'], { encoding: 'utf8', env: { ...process.env, GW_URL: '', GW_DASHBOARD_KEY: '' } });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain('gwctl dump');
  expect(r.stdout).toContain('GW_DASHBOARD_KEY');
  const bare = spawnSync('npx', ['--no-install', 'gwctl', 'dump'], { encoding: 'utf8', env: { ...process.env, GW_URL: '', GW_DASHBOARD_KEY: '' } });
  expect(bare.status).toBe(1);
  expect(bare.stderr).toContain('gwctl: GW_URL is not set');
}, 60_000);
