/**
 * Builds the console (docs/using/console.md): `vite build` of console/ into console/dist. Its client
 * types (console/src/api/openapi.d.ts) are generated and committed, and `npm test` checks them
 * current and the console type-correct against them (test/unit/generated-files.test.ts,
 * test/unit/type-check.test.ts), so a build only bundles.
 *
 * A build writes into a folder of its own and moves it into place when it is complete, so a stage
 * serving the folder never serves half a build. One build at a time per folder: the lock is that
 * build's own folder, holding the builder's process id, so a lock whose builder died is taken over.
 *
 * `console/dist` holds a stamp of the inputs it was built from: the stages' first console request,
 * synth and the console tests rebuild it only when it is missing or the console's sources or the
 * lockfile changed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CONSOLE_DIR = join(ROOT, 'console');
export const DIST_DIR = join(CONSOLE_DIR, 'dist');
/** The inputs' hash a build was made from; never served (dot files are not) nor uploaded. */
export const STAMP_FILE = '.build-hash';

/** What the bundle is made from (the console imports nothing of the service but the types, which compile away). */
const INPUTS = ['src', 'public', 'index.html', 'portal', 'vite.config.ts', 'tsconfig.json'];
/** A lock older than this is left by a build that hangs. */
const STALE_LOCK_MS = 10 * 60_000;
const POLL_MS = 200;

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
}

/** The hash of what a build reads: the console's sources and the lockfile. */
function inputsHash(): string {
  const h = createHash('sha256');
  const files = [...INPUTS.flatMap((p) => filesUnder(join(CONSOLE_DIR, p))), join(ROOT, 'package-lock.json')];
  for (const f of files) h.update(relative(ROOT, f)).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex');
}

/** Whether `outDir` holds a build of the current inputs. */
export function isConsoleFresh(outDir = DIST_DIR): boolean {
  const stamp = join(outDir, STAMP_FILE);
  return existsSync(join(outDir, 'index.html')) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === inputsHash();
}

/** The lock of builds into `outDir`, beside it (console/.dist-building); the build writes inside it. */
const lockOf = (outDir: string) => join(dirname(resolve(outDir)), `.${basename(outDir)}-building`);
const OWNER_FILE = 'pid';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerOf(lock: string): number {
  try {
    return Number(readFileSync(join(lock, OWNER_FILE), 'utf8'));
  } catch {
    return 0;
  }
}

/** Takes the lock, or clears it when its builder died or hangs; answers whether this process holds it now. */
function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, OWNER_FILE), String(process.pid));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const owner = ownerOf(lock);
    const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
    // No owner yet: the other builder is between its mkdir and its write; give it the poll interval.
    const dead = owner ? !alive(owner) : Date.now() - since > POLL_MS * 5;
    if (dead || Date.now() - since > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

const viteArgs = (out: string) => [
  join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
  'build',
  '--config',
  join(CONSOLE_DIR, 'vite.config.ts'),
  '--outDir',
  out,
  '--emptyOutDir',
  '--logLevel',
  'warn',
];

const failure = (status: number | string | null, output: string) => new Error(`console build: vite build failed (exit ${status}):\n${output}`);

/** Stamps the finished build and moves it into place. */
function install(out: string, outDir: string, hash: string): void {
  writeFileSync(join(out, STAMP_FILE), `${hash}\n`);
  rmSync(outDir, { recursive: true, force: true });
  renameSync(out, outDir);
}

/**
 * A build into `outDir` (default console/dist). With `ifStale`, nothing happens when `outDir` was
 * built from the current inputs (checked again once the lock is held: a build that waited may find
 * the other one made it). Synchronous, because CDK's local bundling (infra/constructs/console-hosting.ts)
 * calls it synchronously. Answers whether it built.
 */
export function buildConsole(outDir = DIST_DIR, opts: { ifStale?: boolean; log?: (line: string) => void } = {}): boolean {
  const lock = lockOf(outDir);
  const until = Date.now() + STALE_LOCK_MS;
  for (;;) {
    if (opts.ifStale && isConsoleFresh(outDir)) return false;
    if (tryLock(lock)) break;
    if (Date.now() > until) throw new Error(`console build: ${lock} is held by another build`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, POLL_MS);
  }
  try {
    if (opts.ifStale && isConsoleFresh(outDir)) return false;
    opts.log?.(`building the console into ${relative(ROOT, resolve(outDir)) || outDir} (vite build)...`);
    const hash = inputsHash();
    const out = join(lock, 'out');
    const r = spawnSync(process.execPath, viteArgs(out), {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    if (r.status !== 0) throw failure(r.status ?? r.signal, `${r.stdout}${r.stderr}`);
    install(out, outDir, hash);
    return true;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * `buildConsole(outDir, { ifStale: true })` without blocking the caller, for a stage that keeps
 * answering while the console builds: the build runs at a lower priority than the stage.
 */
export async function buildConsoleInBackground(outDir = DIST_DIR, log?: (line: string) => void): Promise<boolean> {
  const lock = lockOf(outDir);
  for (;;) {
    if (isConsoleFresh(outDir)) return false;
    if (tryLock(lock)) break;
    await sleep(POLL_MS);
  }
  try {
    if (isConsoleFresh(outDir)) return false;
    log?.(`building the console into ${relative(ROOT, resolve(outDir)) || outDir} (vite build)...`);
    const hash = inputsHash();
    const out = join(lock, 'out');
    const child = spawn(process.execPath, viteArgs(out), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
    if (child.pid) setPriority(child.pid, 10);
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c));
    child.stderr.on('data', (c: Buffer) => (output += c));
    const [code, signal] = await new Promise<[number | null, string | null]>((done, fail) => {
      child.on('error', fail);
      child.on('close', (c, s) => done([c, s]));
    });
    if (code !== 0) throw failure(code ?? signal, output);
    install(out, outDir, hash);
    log?.('console built');
    return true;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** console/dist, built when it is missing or older than its inputs (synth, the console tests). */
export const ensureConsoleBuilt = (log?: (line: string) => void): boolean => buildConsole(DIST_DIR, { ifStale: true, log });
