/**
 * The console's files for the local stages (npm start, npm run emulate), as CloudFront serves them
 * from the bucket in the cloud: `/console/<file>` from the built folder with the console's security
 * headers; a path without a file extension is a page of the single-page app, answered with
 * index.html, or under /console/portal/ with the developer portal's portal/index.html (the cloud's
 * viewer-request function does the same); `/console` redirects to
 * `/console/`. Only GET and HEAD; nothing outside the folder, and no dot file, is ever read.
 *
 * A stage starts without building the console: `consoleOnDemand` builds it on the first console
 * request when the folder is missing or stale, answering a page that reloads itself until the build is done.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { buildConsoleInBackground, DIST_DIR, isConsoleFresh } from './build';
import { cacheControlOf, CONSOLE_BASE, SECURITY_HEADERS } from './headers';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Whether a request path is the console's (everything else is the service's). */
export const isConsolePath = (pathname: string): boolean => pathname === CONSOLE_BASE.slice(0, -1) || pathname.startsWith(CONSOLE_BASE);

function answer(res: ServerResponse, status: number, headers: Record<string, string>, text?: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'cache-control': 'no-store', ...headers });
  res.end(text);
}

/** The file a console path names inside `dir`, or undefined when it names none (or escapes it). */
function consoleFileOf(pathname: string, dir: string): string | undefined {
  let rel: string;
  try {
    rel = decodeURIComponent(pathname.slice(CONSOLE_BASE.length));
  } catch {
    return undefined;
  }
  if (rel.includes('\0') || rel.split('/').some((part) => part.startsWith('.'))) return undefined;
  // A page of the app (no extension in its last segment) is index.html; the developer portal is a page of its own.
  if (rel === '' || !extname(rel.split('/').pop()!)) rel = rel === 'portal' || rel.startsWith('portal/') ? 'portal/index.html' : 'index.html';
  const file = normalize(join(dir, rel));
  if (!file.startsWith(dir + sep)) return undefined;
  return existsSync(file) && statSync(file).isFile() ? file : undefined;
}

/** Answers a console request (`isConsolePath`) from `dir` (default console/dist). */
function serveConsole(req: IncomingMessage, res: ServerResponse, dir = DIST_DIR): void {
  const method = (req.method ?? 'GET').toUpperCase();
  const { pathname, search } = new URL(req.url ?? '/', 'http://local');
  if (method !== 'GET' && method !== 'HEAD')
    return answer(res, 405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }, 'Method Not Allowed\n');
  if (pathname === CONSOLE_BASE.slice(0, -1)) return answer(res, 301, { location: `${CONSOLE_BASE}${search}` });
  if (!existsSync(join(dir, 'index.html'))) {
    return answer(
      res,
      503,
      { 'content-type': 'text/plain; charset=utf-8' },
      'The console is not built: run npm run console:build (npm start and npm run emulate build it on its first request).\n',
    );
  }
  const file = consoleFileOf(pathname, dir);
  if (!file) return answer(res, 404, { 'content-type': 'text/plain; charset=utf-8' }, 'Not Found\n');
  const rel = file
    .slice(dir.length + 1)
    .split(sep)
    .join('/');
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': String(statSync(file).size),
    'cache-control': cacheControlOf(rel),
  });
  if (method === 'HEAD') return void res.end();
  createReadStream(file).pipe(res);
}

/** Seconds the "building" page waits before it reloads itself. */
const RELOAD_SECONDS = 2;
const BUILDING_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><meta http-equiv="refresh" content="' +
  RELOAD_SECONDS +
  '"><title>Building the console</title>' +
  '<p>The console is being built (its sources changed since the last build, or it was never built). ' +
  'This page reloads itself in a few seconds.</p></html>\n';

export interface OnDemandOptions {
  /** The built folder (default console/dist). */
  dir?: string;
  /** Where the build's progress and errors go (the stage's output). */
  log?: (line: string) => void;
  /** Whether `dir` holds a current build, and the build itself (the real ones by default). */
  isFresh?: (dir: string) => boolean;
  build?: (dir: string, log?: (line: string) => void) => Promise<unknown>;
}

/**
 * Answers console requests as `serveConsole` does, once `dir` holds a current build. The first
 * console request checks it; when it is missing or stale, that request starts a build and every
 * request until it is done gets 503 with a page that reloads itself. A failed build answers 500 with
 * its error, once; the next request tries again. `built` settles when the first check or build has.
 */
export function consoleOnDemand(opts: OnDemandOptions = {}): { serve: (req: IncomingMessage, res: ServerResponse) => void; built: () => Promise<void> } {
  const dir = opts.dir ?? DIST_DIR;
  const isFresh = opts.isFresh ?? isConsoleFresh;
  const build = opts.build ?? buildConsoleInBackground;
  let state: 'unchecked' | 'building' | 'ready' = 'unchecked';
  let failed: string | undefined;
  let building: Promise<void> = Promise.resolve();
  const start = () => {
    state = 'building';
    building = build(dir, opts.log).then(
      () => {
        state = 'ready';
      },
      (e: unknown) => {
        failed = e instanceof Error ? e.message : String(e);
        opts.log?.(failed);
        state = 'unchecked';
      },
    );
  };
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const { pathname } = new URL(req.url ?? '/', 'http://local');
    const needsFiles = (method === 'GET' || method === 'HEAD') && pathname !== CONSOLE_BASE.slice(0, -1);
    if (needsFiles && failed !== undefined) {
      const message = failed;
      failed = undefined;
      return answer(res, 500, { 'content-type': 'text/plain; charset=utf-8' }, `The console's build failed (reload to try again):\n${message}\n`);
    }
    if (needsFiles && state === 'unchecked') {
      if (isFresh(dir)) state = 'ready';
      else start();
    }
    if (needsFiles && state === 'building') {
      return answer(
        res,
        503,
        { 'content-type': 'text/html; charset=utf-8', 'retry-after': String(RELOAD_SECONDS) },
        method === 'HEAD' ? undefined : BUILDING_PAGE,
      );
    }
    serveConsole(req, res, dir);
  };
  return { serve, built: () => building };
}
