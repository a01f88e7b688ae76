/**
 * The README's "Quick start" and "Serve your APIs" commands, run as written against a stage of the
 * test's own (its address, its secrets, a folder and a port of its own put in for the README's):
 * a request through nginx reaches the API's upstream with the listen path stripped, spends the
 * key's quota, and a key-less request is refused.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local';
import { ensureNginx, NGINX, statusVia } from '../support/nginx';
import { onEmulator, startStage, type Stage } from '../support/stage';
import { ADMIN_SECRET, GW_SECRET } from '../support/table';

// gwctl follows the in-process stage (docs/developing/tests.md).
const suite = onEmulator ? describe.skip : describe;

/** The shell blocks of a README section, in order. */
function shellOf(readme: string, heading: string): string[] {
  const section = readme.split(`\n## ${heading}\n`)[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

/** The status nginx answers for `path` on the host name the README serves (localhost). */
const statusOf = (path: string) => statusVia(`http://127.0.0.1:${port}`, path, { host: 'localhost' });

let s: Stage;
let dir: string;
let output = '';
let shell: ReturnType<typeof spawn> | undefined;
let port: number;
let suffix: string;

beforeAll(async () => {
  if (onEmulator) return;
  ensureNginx();
  s = await startStage();
  dir = mkdtempSync(join(tmpdir(), 'serve-your-apis-'));
  writeFileSync(join(dir, 'secrets.json'), JSON.stringify({ adminSecret: ADMIN_SECRET, gwSecret: GW_SECRET }));
  const stage = new URL(s.url).host;
  const nginxPort = await freePort();
  port = nginxPort;
  const readme = readFileSync('README.md', 'utf8');
  // The quick start's first block installs and starts a stage: the test has its own.
  const [, firstSteps] = shellOf(readme, 'Quick start');
  const serve = shellOf(readme, 'Serve your APIs');
  expect(firstSteps, 'the quick start has its first steps').toBeDefined();
  expect(serve).toHaveLength(1);
  const script = [firstSteps!, serve[0]!]
    .join('\n')
    .replaceAll('./.data/secrets.json', join(dir, 'secrets.json'))
    .replaceAll('$PWD/.data/nginx', join(dir, 'nginx'))
    .replaceAll('.data/nginx', join(dir, 'nginx'))
    .replace(/(localhost|127\.0\.0\.1):8080/g, stage)
    .replaceAll(':8081', `:${nginxPort}`)
    .replace(/^nginx /gm, `${NGINX} `);
  // Ids and listen paths new on the shared test table: the README's, with a suffix.
  suffix = Date.now().toString(36);
  const text = `set -e\n${script.replaceAll('acme', `acme${suffix}`).replaceAll('pets', `pets${suffix}`)}`;
  shell = spawn('bash', ['-c', text], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [shell.stdout!, shell.stderr!]) stream.on('data', (c: Buffer) => (output += c.toString()));
  await new Promise<void>((done, fail) => {
    shell!.on('exit', (code) => (code === 0 ? done() : fail(new Error(`the README's commands failed (${code}):\n${output}`))));
  });
}, 120_000);

afterAll(async () => {
  if (onEmulator) return;
  // The watcher of step 4 runs on in the background: its process group ends with the test.
  if (shell?.pid) {
    try {
      process.kill(-shell.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  await new Promise<void>((done) => spawn(NGINX, ['-p', join(dir, 'nginx'), '-c', 'nginx.conf', '-s', 'stop']).on('exit', () => done()));
  await s?.close();
});

suite("the README's commands serve an API through nginx", () => {
  it('the last command reaches the upstream through nginx: 200, the listen path stripped, one unit of quota left', () => {
    expect(output, output).toMatch(/HTTP\/1\.1 200 OK/);
    expect(output).toMatch(/X-RateLimit-Remaining: 1\r?\n/i);
    expect(output).toContain('applied routing version');
  });

  it('nginx refuses the same path without the key, and serves no other path', async () => {
    expect(await statusOf(`/pets${suffix}/hello`)).toBe(401);
    expect(await statusOf('/cats/hello')).toBe(404);
  });

  it("the watcher of step 4 serves a new API's listen path within seconds (401 without a key where nginx had no location)", async () => {
    const api = `cats${suffix}`;
    expect(await statusOf(`/${api}/hello`)).toBe(404);
    const created = await s.gw('POST', '/gw/apis', {
      api_id: api,
      name: 'Cats',
      org_id: `acme${suffix}`,
      proxy: { listen_path: `/${api}/`, target_url: s.url, strip_listen_path: true },
    });
    expect(created.status).toBe(200);
    const deadline = Date.now() + 20_000;
    while ((await statusOf(`/${api}/hello`)) !== 401) {
      if (Date.now() > deadline) throw new Error(`not served within 20 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });
});
