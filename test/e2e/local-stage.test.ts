/**
 * `npm start` as a user runs it: a real child process with its own DynamoDB Local on disk.
 * It must answer /hello within 30 s, stop cleanly on SIGTERM, and keep data and secrets across
 * a restart on the same DATA_DIR; it prints a secret only on the start that generated it.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local';
import { request } from '../support/client';
import { spawnStage, type SpawnedStage } from '../support/stage';

const dataDir = mkdtempSync(join(tmpdir(), 'gw-stage-'));
let child: ChildProcess | undefined;
afterAll(() => {
  if (child?.pid) process.kill(-child.pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** `npm start` in its own process group, as a user runs it; resolves once /hello answers. */
async function start(port: number, extraEnv: Record<string, string> = {}): Promise<SpawnedStage> {
  const env = { GW_SECRET: undefined, ADMIN_SECRET: undefined, SERVER_SECRET: undefined, DYNAMODB_ENDPOINT: undefined, TABLE_NAME: undefined, ...extraEnv };
  return spawnStage({ dataDir, port, env, via: 'npm', readyTimeoutMs: 30_000 });
}

/** Ctrl-C: SIGINT to the whole group, and no SIGKILL behind it; answers whether anything of the stage is still running. */
async function stop(stage: SpawnedStage): Promise<string> {
  await stage.stop('SIGINT', null);
  const left = spawnSync('pgrep', ['-f', dataDir], { encoding: 'utf8' }).stdout.trim();
  return left;
}

it('starts, persists across a restart on the same DATA_DIR, and stops cleanly', async () => {
  const port = await freePort();
  const first = await start(port);
  child = first.proc;
  expect(first.readyMs).toBeLessThan(30_000);
  const secrets = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'));
  expect(secrets.gwSecret).toMatch(/^[0-9a-f]{48}$/);
  expect(secrets.serverSecret).toMatch(/^[0-9a-f]{64}$/);
  // The first start generated the credentials, so it prints them; the service key never.
  expect(first.output()).toContain(secrets.adminSecret);
  expect(first.output()).toContain(secrets.gwSecret);
  expect(first.output()).not.toContain(secrets.serverSecret);

  const admin = { 'admin-auth': secrets.adminSecret, 'content-type': 'application/json' };
  const base = `http://127.0.0.1:${port}`;
  const org = await request(base, 'POST', '/admin/organisations', { headers: admin, body: { id: 'kept-org' } });
  expect(org.status).toBe(200);
  const user = await request<{ Meta: { access_key: string } }>(base, 'POST', '/admin/users', {
    headers: admin,
    body: { org_id: 'kept-org', email_address: 'kept@org.example' },
  });
  const key = user.body.Meta.access_key;

  expect(await stop(first)).toBe('');

  // Restart with the gateway secret from the environment: no secret is printed again.
  const envGwSecret = 'gw-secret-from-the-environment';
  const second = await start(port, { GW_SECRET: envGwSecret });
  child = second.proc;
  const again = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'));
  expect(again).toEqual(secrets);
  for (const secret of [envGwSecret, secrets.gwSecret, secrets.adminSecret, secrets.serverSecret]) expect(second.output()).not.toContain(secret);
  expect(second.output()).toContain('(from GW_SECRET)');
  expect(second.output()).toContain(`(kept in ${join(dataDir, 'secrets.json')}, adminSecret)`);
  const gwAnswer = await request(base, 'GET', '/gw/policies/none', { headers: { 'x-gw-authorization': envGwSecret } });
  expect(gwAnswer.status).toBe(404);
  const users = await request<{ users: Array<{ email_address: string }> }>(base, 'GET', '/api/users', { headers: { authorization: `Bearer ${key}` } });
  expect(users.status).toBe(200);
  const body = users.body;
  expect(body.users.map((u) => u.email_address)).toEqual(['kept@org.example']);
  const dup = await request(base, 'POST', '/admin/organisations', { headers: admin, body: { id: 'kept-org' } });
  expect(dup.status).toBe(409);
  expect(await stop(second)).toBe('');
  child = undefined;
}, 120_000);
