/**
 * gwctl is built on the service's document: the copy under tools/gwctl/generated/ (its schemas for
 * validate, the types its client is typed by) must be what `npm run gwctl:contract` writes from
 * the current route table, and the command must start from the package's bin as `npx gwctl` does.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { gwctlContract } from '../../scripts/gwctl-contract';

it('the generated document and types are current (npm run gwctl:contract rewrites them)', async () => {
  const { document, types } = await gwctlContract();
  expect(readFileSync('tools/gwctl/generated/openapi.json', 'utf8') === document, 'tools/gwctl/generated/openapi.json is stale: npm run gwctl:contract').toBe(
    true,
  );
  expect(readFileSync('tools/gwctl/generated/api.d.ts', 'utf8') === types, 'tools/gwctl/generated/api.d.ts is stale: npm run gwctl:contract').toBe(true);
}, 60_000);

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
