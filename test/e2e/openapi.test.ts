import { Validator } from '@seriousme/openapi-schema-validator';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { routeList } from '../../shared/routes';
import { startStage, type Stage } from '../support/stage';

let s: Stage;
beforeAll(async () => {
  s = await startStage();
});
afterAll(() => s.close());

it('/openapi.json is a valid OpenAPI 3.1 document listing every route of the table', async () => {
  const r = await s.call('GET', '/openapi.json');
  expect(r.status).toBe(200);
  expect(r.body.openapi).toBe('3.1.0');
  const result = await new Validator().validate(r.body);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  for (const route of routeList) {
    const op = r.body.paths[route.path]?.[route.method.toLowerCase()];
    expect(op, `${route.method} ${route.path}`).toBeDefined();
    expect(op.operationId).toBe(route.name);
    expect(op['x-planned']).toBeUndefined();
  }
  // Bodies are named models: the operation references the component, which holds the rules.
  const create = r.body.paths['/admin/users'].post;
  expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/UserCreate' });
  expect(r.body.components.schemas.UserCreate.required).toEqual(['org_id', 'email_address']);
});

it('passes the Redocly linter with its recommended rules: 0 errors', async () => {
  const r = await s.call('GET', '/openapi.json');
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), r.text);
    // Run from a folder without a redocly.yaml, so the built-in recommended rules apply.
    const cli = join(process.cwd(), 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
    const run = await promisify(execFile)(process.execPath, [cli, 'lint', 'openapi.json', '--extends=recommended', '--format=json'], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? '', stderr: e.stderr ?? '' }));
    const report = JSON.parse(run.stdout) as { totals: { errors: number }; problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }> };
    const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors.slice(0, 30)).toEqual([]);
    expect(report.totals.errors).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);
