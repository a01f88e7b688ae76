/**
 * The one stage launcher, for the tests, the benchmarks (bench/lib/stage.ts) and the durability
 * run (scripts/durability.ts):
 * - startStage(): the local server in this process over a fresh table of the suite's DynamoDB
 *   Local, for e2e tests; with STAGE=emulator (`npm run test:emulator`), the synthesized stack
 *   served by `npm run emulate` over that table instead, and closing it fails on any IAM denial;
 * - startEmulatedStage(): `npm run emulate` as a child process on a template;
 * - spawnStage(): `npm start`'s entry point as a child process on a DATA_DIR of its own, for
 *   whatever must restart, crash or measure a real stage;
 * - stageAt(): the client of any stage serving the test credentials (the emulator's too).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { awaitLocalCommits } from '../../infra/local/commit-wait';
import { freePort } from '../../infra/local/dynamodb-local';
import { startChangeFeed } from '../../infra/local/change-feed';
import { createLocalServer } from '../../infra/local/server';
import { ddb } from '../../shared/store/db/client';
import { cloudAssembly } from './assembly';
import { request, waitForPass, type Answer } from './client';
import { ADMIN_SECRET, GW_SECRET, SERVER_SECRET, useTestTable } from './table';
import { workerDynamoEndpoint } from './dynamo-endpoint';

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
  /**
   * Resolves once the stage's change feed has done all the work of what was written so far (its
   * caughtUp, infra/local/change-feed.ts): what a test waits for before it asserts that nothing
   * else arrives. Only the in-process stage started with `changeFeed` reads one; others reject.
   */
  caughtUp(): Promise<void>;
  close(): Promise<void>;
}

/** How long caughtUp may take before the test fails naming it (a record that keeps failing). */
const CATCH_UP_MS = 120_000;

let counter = 0;

/**
 * STAGE=emulator: startStage() serves the deployed form (docs/developing/tests.md). A test that needs what
 * only the in-process server has (this process's environment or caches) skips itself there.
 */
export const onEmulator = process.env.STAGE === 'emulator';

/**
 * The local stage's real HTTP server on a free port, over a fresh table (STAGE=emulator: the
 * emulated stack). `changeFeed` also reads the table's stream into the webhook delivery, as
 * `npm start` does (only the suites about events ask for it, so the others do not poll the shared
 * DynamoDB Local); the emulator feeds no stream, so those suites skip there.
 */
export async function startStage(opts: { changeFeed?: boolean } = {}): Promise<Stage> {
  const table = await useTestTable();
  // As npm start does (infra/local/main.ts): transactional writes answered once committed.
  awaitLocalCommits(ddb());
  if (onEmulator) return emulatedOver(table);
  const server = createLocalServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const feed = opts.changeFeed ? startChangeFeed({ endpoint: process.env.DYNAMODB_ENDPOINT!, tableName: table, pollMs: 100, dueMs: 250 }) : undefined;
  const stage = stageAt(url, table, async () => {
    await feed?.stop();
    await new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  });
  if (feed) stage.caughtUp = () => withDeadline(feed.caughtUp(), CATCH_UP_MS, 'the change feed did not catch up');
  return stage;
}

/** `work`, or a failure naming `what` once `ms` have passed without it. */
function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
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
    caughtUp: () => Promise.reject(new Error('this stage reads no change feed in this process: startStage({ changeFeed: true }) does')),
    close,
  };
  return stage;
}

/**
 * The synthesized stack served by `npm run emulate` over `table` (made by useTestTable, so the
 * test's own reads of the table see what the functions wrote). Closing it reports its figures and
 * fails when any function was refused an action by its policy: the IAM proof of the whole suite.
 */
async function emulatedOver(table: string): Promise<Stage> {
  // EMULATOR_TEMPLATE: another template (a changed copy), else the stack synthesized from the sources.
  const template = process.env.EMULATOR_TEMPLATE || (await cloudAssembly()).template;
  const s = await startEmulatedStage(template, { TABLE_NAME: table, SERVER_SECRET });
  return {
    ...s,
    async close() {
      await s.close();
      const denied = linesOf(s, 'DENIED');
      const reports = linesOf(s, 'REPORT');
      console.log(`emulator stage: ${reports.length} invocations, ${reports.filter((l) => /Init Duration/.test(l)).length} cold, ${denied.length} IAM denials`);
      if (denied.length > 0) throw new Error(`IAM denials through the emulator:\n${denied.join('\n')}`);
    },
  };
}

export interface EmulatedStage extends Stage {
  /** Every line the emulator printed so far. */
  log: string[];
  child: ChildProcess;
}

/**
 * `npm run emulate` as a child process: the synthesized template served on a free port with the
 * test credentials, over a fresh table of the run's DynamoDB Local (created by the emulator from
 * the template) unless `env` names one. Its output is kept line by line: REPORT, INIT_REPORT,
 * ERROR and DENIED lines are what the tests read.
 */
export async function startEmulatedStage(template: string, env: Record<string, string> = {}): Promise<EmulatedStage> {
  const table = env.TABLE_NAME ?? `e-${randomUUID()}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-emulate-'));
  const port = await freePort();
  // A data-plane template serves its data plane on a port of its own: a free one, never PORT + 1,
  // which another stage of the run may hold.
  const dataPlanePort = env.DATA_PLANE_PORT ?? String(await freePort());
  const child = spawn('npm', ['run', '--silent', 'emulate', '--', '--template', template], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_PLANE_PORT: dataPlanePort,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DYNAMODB_ENDPOINT: workerDynamoEndpoint(),
      TABLE_NAME: table,
      GW_SECRET,
      ADMIN_SECRET,
      ...env,
    },
  });
  const log: string[] = [];
  for (const out of [child.stdout!, child.stderr!]) createInterface({ input: out }).on('line', (l) => log.push(l));
  const deadline = Date.now() + 90_000;
  while (!log.some((l) => l.startsWith('Emulated cloud stage listening on'))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
      throw new Error(`npm run emulate did not start:\n${log.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const close = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGTERM');
      const timer = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    // npm exits before its group does: a function's process still writing into DATA_DIR made the
    // removal fail (ENOTEMPTY) in a full run. The directory goes once no member of the group is left.
    await groupGone(child.pid!);
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
  };
  return Object.assign(stageAt(`http://127.0.0.1:${port}`, table, close), { log, child });
}

/**
 * Resolves once no process of the group `pgid` is left: what is still there after 5 s is killed,
 * and after 10 s it stops waiting (an unreaped zombie still answers signal 0).
 */
async function groupGone(pgid: number): Promise<void> {
  const signal = (s: NodeJS.Signals | 0) => {
    try {
      process.kill(-pgid, s);
      return true;
    } catch {
      return false;
    }
  };
  const started = Date.now();
  while (signal(0) && Date.now() - started < 10_000) {
    if (Date.now() - started > 5_000) signal('SIGKILL');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The emulator's lines of one kind (REPORT, INIT_REPORT, ERROR, DENIED). */
export const linesOf = (s: EmulatedStage, kind: string) => s.log.filter((l) => l.startsWith(`${kind} `));

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
  /** Throws, with the stage's output, once its process has exited: a wait on its answers then fails with why. */
  assertRunning(): void;
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
    assertRunning: () => {
      if (exited()) throw new Error(`the local stage exited (${proc.signalCode ?? proc.exitCode}):\n${out.slice(-4000)}`);
    },
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
