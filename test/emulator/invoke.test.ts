/**
 * `npm run event` and `npm run invoke`, like `sam local generate-event` and `sam local invoke`:
 * a create and a read round-trip through events generated for the template's routes and the
 * functions' bundles run one at a time on Lambda's Node, storing in the run's DynamoDB Local.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../infra/local/emulator/synth';
import { cloudAssembly } from '../support/assembly';
import { GW_SECRET } from '../support/table';
import { workerDynamoEndpoint } from '../support/dynamo-endpoint';

let template: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  template = (await cloudAssembly()).template;
  env = {
    ...process.env,
    DYNAMODB_ENDPOINT: workerDynamoEndpoint(),
    TABLE_NAME: `i-${randomUUID()}`,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-invoke-')),
    GW_SECRET,
  };
}, 900_000);
afterAll(() => rmSync(env.DATA_DIR!, { recursive: true, force: true }));

function npm(script: string, args: string[], input?: string) {
  const r = spawnSync('npm', ['run', '--silent', script, '--', ...args, '--template', template], { cwd: ROOT, env, input, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('npm run event | npm run invoke', () => {
  it('round-trips a create and a read', () => {
    const id = `pol-${randomUUID().slice(0, 8)}`;
    const created = npm('event', ['POST', '/gw/policies', '--body', '-', '--header', `X-Gw-Authorization: ${GW_SECRET}`], JSON.stringify({ id, name: 'Gold' }));
    expect(created.status, created.stderr).toBe(0);
    const createEvent = JSON.parse(created.stdout);
    expect(createEvent).toMatchObject({
      version: '2.0',
      routeKey: 'POST /gw/policies',
      rawPath: '/gw/policies',
      headers: { 'x-gw-authorization': GW_SECRET, 'content-type': 'application/json' },
      requestContext: { http: { method: 'POST', path: '/gw/policies' }, routeKey: 'POST /gw/policies', stage: '$default' },
      isBase64Encoded: false,
    });

    const create = npm('invoke', ['policiesCreate', '--event', '-'], created.stdout);
    expect(create.status, create.stderr).toBe(0);
    const createResult = JSON.parse(create.stdout);
    expect(createResult.statusCode).toBe(200);
    expect(JSON.parse(createResult.body)).toEqual({ key: id, status: 'ok', action: 'added' });
    expect(create.stderr).toMatch(/^REPORT policiesCreate RequestId: \S+ Duration: [\d.]+ ms .* Init Duration: [\d.]+ ms$/m);

    const read = npm('event', ['GET', `/gw/policies/${id}?x=1`, '--header', `x-gw-authorization:${GW_SECRET}`]);
    expect(read.status, read.stderr).toBe(0);
    const readEvent = JSON.parse(read.stdout);
    expect(readEvent).toMatchObject({ routeKey: 'GET /gw/policies/{policyID}', pathParameters: { policyID: id }, queryStringParameters: { x: '1' } });

    const got = npm('invoke', ['policiesGet', '--event', '-'], read.stdout);
    expect(got.status, got.stderr).toBe(0);
    const gotResult = JSON.parse(got.stdout);
    expect(gotResult.statusCode).toBe(200);
    expect(JSON.parse(gotResult.body)).toMatchObject({ id, name: 'Gold' });
  });

  it('names the functions when asked for one the template does not have', () => {
    const r = npm('invoke', ['noSuchRoute']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no function noSuchRoute .*policiesCreate/);
  });
});
