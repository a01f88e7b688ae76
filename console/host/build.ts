/**
 * Builds the console (README "Console"): the client types from the route table's OpenAPI document
 * (`npm run openapi`, then openapi-typescript), a strict type-check of the console against them
 * (so a changed contract breaks the build), then `vite build`. Synchronous, because CDK's local
 * bundling (infra/constructs/console-hosting.ts) calls it synchronously; one build at a time on a
 * machine (a lock directory), since the generated types are one file.
 *
 * `console/dist` holds a stamp of the inputs it was built from: `npm start` and `npm run emulate`
 * rebuild it only when it is missing or the console's sources, the route table and schemas the
 * client types come from, or the lockfile changed.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CONSOLE_DIR = join(ROOT, 'console');
export const DIST_DIR = join(CONSOLE_DIR, 'dist');
/** The inputs' hash a build was made from; never served (dot files are not) nor uploaded. */
export const STAMP_FILE = '.build-hash';
const TYPES_FILE = join(CONSOLE_DIR, 'src', 'api', 'openapi.d.ts');

const INPUTS = ['src', 'public', 'index.html', 'vite.config.ts', 'tsconfig.json'];
/** What the OpenAPI document, and so the client types, is made from: a changed contract type-checks the console again. */
const CONTRACT = ['shared/routes.ts', 'shared/route-def.ts', 'shared/route-groups', 'shared/schemas', 'shared/openapi'];
const LOCK_DIR = join(CONSOLE_DIR, '.build-lock');
/** A lock older than this was left by a build that died. */
const STALE_LOCK_MS = 10 * 60_000;

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
}

/** The hash of what a build reads: the console's sources (not the generated types), the contract's sources and the lockfile. */
function inputsHash(): string {
  const h = createHash('sha256');
  const files = [
    ...INPUTS.flatMap((p) => filesUnder(join(CONSOLE_DIR, p))),
    ...CONTRACT.flatMap((p) => filesUnder(join(ROOT, p))),
    join(ROOT, 'package-lock.json'),
  ].filter((f) => f !== TYPES_FILE);
  for (const f of files) h.update(relative(ROOT, f)).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex');
}

function isFresh(outDir = DIST_DIR): boolean {
  const stamp = join(outDir, STAMP_FILE);
  return existsSync(join(outDir, 'index.html')) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === inputsHash();
}

function run(command: string, args: string[], what: string): void {
  const r = spawnSync(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  if (r.status !== 0) throw new Error(`console build: ${what} failed (exit ${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
}

const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

function withLock<T>(fn: () => T): T {
  const until = Date.now() + STALE_LOCK_MS;
  for (;;) {
    try {
      mkdirSync(LOCK_DIR);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const heldSince = statSync(LOCK_DIR, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - heldSince > STALE_LOCK_MS) rmSync(LOCK_DIR, { recursive: true, force: true });
      if (Date.now() > until) throw new Error(`console build: ${LOCK_DIR} is held by another build`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}

/** Writes the client types: `npm run openapi` writes openapi.json, openapi-typescript turns it into types. */
function writeTypes(): void {
  run('npm', ['run', '--silent', 'openapi'], 'npm run openapi');
  const tmp = `${TYPES_FILE}.${process.pid}.tmp`;
  run(bin('openapi-typescript'), [join(ROOT, 'openapi.json'), '--output', tmp], 'openapi-typescript');
  renameSync(tmp, TYPES_FILE);
}

/**
 * A full build into `outDir` (default console/dist): types, type-check, bundle, stamp. With
 * `ifStale`, nothing happens when `outDir` was built from the current inputs (checked again once
 * the lock is held: a build that waited may find the other one made it). Answers whether it built.
 */
export function buildConsole(outDir = DIST_DIR, opts: { ifStale?: boolean; log?: (line: string) => void } = {}): boolean {
  if (opts.ifStale && isFresh(outDir)) return false;
  return withLock(() => {
    if (opts.ifStale && isFresh(outDir)) return false;
    opts.log?.(`building the console into ${relative(ROOT, resolve(outDir)) || outDir} (types, type-check, vite build)...`);
    const hash = inputsHash();
    writeTypes();
    run(bin('tsc'), ['-p', join(CONSOLE_DIR, 'tsconfig.json')], 'type-check (tsc -p console)');
    run(
      bin('vite'),
      ['build', '--config', join(CONSOLE_DIR, 'vite.config.ts'), '--outDir', resolve(outDir), '--emptyOutDir', '--logLevel', 'warn'],
      'vite build',
    );
    writeFileSync(join(outDir, STAMP_FILE), `${hash}\n`);
    return true;
  });
}

/** console/dist, built when it is missing or older than its inputs (npm start, npm run emulate, the browser tests). */
export const ensureConsoleBuilt = (log?: (line: string) => void): boolean => buildConsole(DIST_DIR, { ifStale: true, log });
