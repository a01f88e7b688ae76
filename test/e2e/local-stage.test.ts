/**
 * `npm start` as a user runs it: a real child process with its own DynamoDB Local on disk.
 * It must answer /hello within 30 s, stop cleanly on SIGTERM, and keep data and secrets across
 * a restart on the same DATA_DIR; it prints a secret only on the start that generated it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local';

const dataDir = mkdtempSync(join(tmpdir(), 'gw-stage-'));
let child: ChildProcess | undefined;
afterAll(() => {
  if (child?.pid) process.kill(-child.pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(port: number, extraEnv: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' };
  for (const k of ['GW_SECRET', 'ADMIN_SECRET', 'SERVER_SECRET', 'DYNAMODB_ENDPOINT', 'TABLE_NAME']) delete env[k];
  Object.assign(env, extraEnv);
  const started = Date.now();
  // Its own process group, so a signal reaches npm, tsx and the server as Ctrl-C in a terminal does.
  const proc = spawn('npm', ['start', '--silent'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  proc.stdout!.on('data', (d) => (out += String(d)));
  proc.stderr!.on('data', (d) => (out += String(d)));
  for (;;) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/hello`);
      if (r.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() - started > 30_000) throw new Error(`no /hello within 30 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { proc, output: () => out, readyMs: Date.now() - started };
}

/** Ctrl-C: SIGINT to the whole group; answers whether anything of the stage is still running. */
async function stop(proc: ChildProcess): Promise<string> {
  await new Promise<void>((resolve) => {
    proc.once('exit', () => resolve());
    process.kill(-proc.pid!, 'SIGINT');
  });
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
  const org = await fetch(`${base}/admin/organisations`, { method: 'POST', headers: admin, body: JSON.stringify({ id: 'kept-org' }) });
  expect(org.status).toBe(200);
  const user = await fetch(`${base}/admin/users`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ org_id: 'kept-org', email_address: 'kept@org.example' }),
  });
  const key = ((await user.json()) as { Meta: { access_key: string } }).Meta.access_key;

  expect(await stop(first.proc)).toBe('');

  // Restart with the gateway secret from the environment: no secret is printed again.
  const envGwSecret = 'gw-secret-from-the-environment';
  const second = await start(port, { GW_SECRET: envGwSecret });
  child = second.proc;
  const again = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'));
  expect(again).toEqual(secrets);
  for (const secret of [envGwSecret, secrets.gwSecret, secrets.adminSecret, secrets.serverSecret]) expect(second.output()).not.toContain(secret);
  expect(second.output()).toContain('(from GW_SECRET)');
  expect(second.output()).toContain(`(kept in ${join(dataDir, 'secrets.json')}, adminSecret)`);
  const gwAnswer = await fetch(`${base}/gw/policies/none`, { headers: { 'x-gw-authorization': envGwSecret } });
  expect(gwAnswer.status).toBe(404);
  const users = await fetch(`${base}/api/users`, { headers: { authorization: `Bearer ${key}` } });
  expect(users.status).toBe(200);
  const body = (await users.json()) as { users: Array<{ email_address: string }> };
  expect(body.users.map((u) => u.email_address)).toEqual(['kept@org.example']);
  const dup = await fetch(`${base}/admin/organisations`, { method: 'POST', headers: admin, body: JSON.stringify({ id: 'kept-org' }) });
  expect(dup.status).toBe(409);
  expect(await stop(second.proc)).toBe('');
  child = undefined;
}, 120_000);
