/**
 * The one stage launcher, for the tests, the benchmarks (bench/lib/stage.ts) and the durability
 * run (scripts/durability.ts):
 * - startStage(): the local server in this process over a fresh table of the suite's DynamoDB
 *   Local, for e2e tests;
 * - spawnStage(): `npm start`'s entry point as a child process on a DATA_DIR of its own, for
 *   whatever must restart, crash or measure a real stage;
 * - stageAt(): the client of any stage serving the test credentials (the emulator's too).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../infra/local/dynamodb-local';
import { startChangeFeed } from '../../infra/local/change-feed';
import { createLocalServer } from '../../infra/local/server';
import { request, waitForPass, type Answer } from './client';
import { ADMIN_SECRET, GW_SECRET, useTestTable } from './table';

export type { Answer } from './client';

export interface Stage {
  url: string;
  table: string;
  /** A raw request; `body` objects are sent as JSON, strings as they are. */
  call<T = any>(method: string, path: string, opts?: { headers?: Record<string, string>; body?: unknown }): Promise<Answer<T>>;
  admin<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>>;
  gw<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>>;
  dash<T = any>(key: string, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>>;
  /** Creates an organisation and a dashboard user in it; answers the user's access key. */
  tenant(orgId?: string): Promise<{ orgId: string; key: string; userId: string }>;
  close(): Promise<void>;
}

let counter = 0;

/**
 * The local stage's real HTTP server on a free port, over a fresh table. `changeFeed` also reads
 * the table's stream into the webhook delivery, as `npm start` does (only the suites about events
 * ask for it, so the others do not poll the shared DynamoDB Local).
 */
export async function startStage(opts: { changeFeed?: boolean } = {}): Promise<Stage> {
  const table = await useTestTable();
  const server = createLocalServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stopFeed = opts.changeFeed ? startChangeFeed({ endpoint: process.env.DYNAMODB_ENDPOINT!, tableName: table, pollMs: 100, dueMs: 250 }) : undefined;
  return stageAt(url, table, async () => {
    await stopFeed?.();
    await new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
  });
}

/** A client for any stage serving the given credentials at `url` (by default the test ones). */
export function stageAt(url: string, table: string, close: () => Promise<void>, secrets = { gw: GW_SECRET, admin: ADMIN_SECRET }): Stage {
  const call: Stage['call'] = (method, path, opts = {}) => request(url, method, path, opts);
  const stage: Stage = {
    url,
    table,
    call,
    admin: (method, path, body, headers = {}) => call(method, path, { body, headers: { 'admin-auth': secrets.admin, ...headers } }),
    gw: (method, path, body, headers = {}) => call(method, path, { body, headers: { 'x-gw-authorization': secrets.gw, ...headers } }),
    dash: (key, method, path, body, headers = {}) => call(method, path, { body, headers: { authorization: `Bearer ${key}`, ...headers } }),
    async tenant(orgId = `org-${process.pid}-${++counter}-${Date.now().toString(36)}`) {
      const org = await stage.admin('POST', '/admin/organisations', { id: orgId, owner_name: orgId });
      if (org.status !== 200) throw new Error(`org create failed: ${JSON.stringify(org.body)}`);
      const user = await stage.admin('POST', '/admin/users', { org_id: orgId, email_address: `owner@${orgId}.example` });
      if (user.status !== 200) throw new Error(`user create failed: ${JSON.stringify(user.body)}`);
      return { orgId, key: user.body.Meta.access_key as string, userId: user.body.Meta.id as string };
    },
    close,
  };
  return stage;
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface SpawnOptions {
  dataDir: string;
  /** Default: a free one. */
  port?: number;
  /** Over this process's environment; `undefined` removes a variable (so DATA_DIR's secrets and DynamoDB Local are used). */
  env?: Record<string, string | undefined>;
  /** 'node' (default): `node --import tsx infra/local/main.ts`; 'npm': `npm start`, as a user runs it. */
  via?: 'node' | 'npm';
  /** Node options before the entry point (such as --cpu-prof). */
  nodeArgs?: string[];
  /** 'pipe' (default) keeps the output for output(); 'stderr' shows only errors, as the benchmarks do. */
  output?: 'pipe' | 'stderr';
  readyTimeoutMs?: number;
}

export interface SpawnedStage {
  url: string;
  port: number;
  /** The stage's process, leader of its own process group (the signal of stop() reaches tsx, node and Java). */
  proc: ChildProcess;
  /** From spawn to GET /hello answering pass. */
  readyMs: number;
  output(): string;
  /** Sends `signal` to the whole group and waits for the stage to exit; SIGKILL after `killAfterMs` (null: never). */
  stop(signal?: NodeJS.Signals, killAfterMs?: number | null): Promise<void>;
}

/** `npm start`'s entry point as a child process; resolves once GET /hello answers pass. */
export async function spawnStage(opts: SpawnOptions): Promise<SpawnedStage> {
  const port = opts.port ?? (await freePort());
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: opts.dataDir, PORT: String(port), HOST: '127.0.0.1' };
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const [command, args] =
    opts.via === 'npm' ? ['npm', ['start', '--silent']] : [process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', join(ROOT, 'infra/local/main.ts')]];
  const started = performance.now();
  const proc = spawn(command, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', opts.output === 'stderr' ? 'ignore' : 'pipe', opts.output === 'stderr' ? 'inherit' : 'pipe'],
    detached: true,
  });
  let out = '';
  proc.stdout?.on('data', (d) => (out += String(d)));
  proc.stderr?.on('data', (d) => (out += String(d)));
  const url = `http://127.0.0.1:${port}`;
  const timeout = opts.readyTimeoutMs ?? 60_000;
  const exited = () => proc.exitCode !== null || proc.signalCode !== null;
  if (!(await waitForPass(url, Date.now() + timeout, exited))) {
    if (!exited()) process.kill(-proc.pid!, 'SIGKILL');
    throw new Error(`the local stage ${exited() ? 'exited' : `gave no /hello pass within ${timeout} ms`}:\n${out}`);
  }
  const readyMs = Math.round(performance.now() - started);
  return {
    url,
    port,
    proc,
    readyMs,
    output: () => out,
    stop: (signal = 'SIGTERM', killAfterMs: number | null = 10_000) =>
      new Promise<void>((done) => {
        if (exited()) return done();
        proc.once('exit', () => done());
        process.kill(-proc.pid!, signal);
        if (killAfterMs === null) return;
        setTimeout(() => {
          try {
            process.kill(-proc.pid!, 'SIGKILL');
          } catch {
            /* already gone */
          }
        }, killAfterMs).unref();
      }),
  };
}
