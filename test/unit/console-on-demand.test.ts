/**
 * The local stages start without building the console (console/host/static-files.ts): the first
 * console request builds it when it is stale, and until then every console request gets a page
 * that reloads itself; a failed build shows its error once, and the next request builds again.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { consoleOnDemand, type OnDemandOptions } from '../../console/host/static-files';

const root = mkdtempSync(join(tmpdir(), 'console-on-demand-'));
const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
  rmSync(root, { recursive: true, force: true });
});

/** A stage's console over `dir`, with the build and freshness check given; answers its base URL, the builds started and the site. */
async function site(dir: string, opts: Pick<OnDemandOptions, 'build' | 'isFresh'>) {
  const builds: string[] = [];
  const build = async (d: string, log?: (line: string) => void) => {
    builds.push(d);
    await opts.build?.(d, log);
  };
  const s = consoleOnDemand({ dir, log: () => undefined, isFresh: opts.isFresh, build });
  const server = createServer((req, res) => s.serve(req, res));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { base: `http://127.0.0.1:${port}`, builds, built: s.built };
}

/** What a build writes: an index.html. */
const writeBuild = (dir: string) => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<div id="app"></div>');
};

let n = 0;
const freshDir = () => join(root, `dist-${n++}`);

beforeAll(() => mkdirSync(root, { recursive: true }));

it('builds a stale console on its first request, answering a page that reloads itself until the build is done', async () => {
  const dir = freshDir();
  let finish!: () => void;
  const { base, builds, built } = await site(dir, {
    isFresh: () => false,
    build: (d) =>
      new Promise<void>((r) => {
        finish = () => {
          writeBuild(d);
          r();
        };
      }),
  });
  const first = await fetch(`${base}/console/keys`);
  expect(first.status).toBe(503);
  expect(first.headers.get('retry-after')).toBe('2');
  expect(first.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(await first.text()).toContain('<meta http-equiv="refresh" content="2">');
  // Requests during the build wait on the same build.
  expect((await fetch(`${base}/console/`)).status).toBe(503);
  expect(builds).toEqual([dir]);
  finish();
  await built();
  const page = await fetch(`${base}/console/keys`);
  expect(page.status).toBe(200);
  expect(await page.text()).toBe('<div id="app"></div>');
  expect(builds).toEqual([dir]);
});

it('serves a current build without building, and builds nothing for a redirect or a refused method', async () => {
  const dir = freshDir();
  writeBuild(dir);
  const { base, builds } = await site(dir, { isFresh: () => true, build: async () => undefined });
  expect((await fetch(`${base}/console`, { redirect: 'manual' })).status).toBe(301);
  expect((await fetch(`${base}/console/`, { method: 'POST' })).status).toBe(405);
  expect((await fetch(`${base}/console/`)).status).toBe(200);
  expect(builds).toEqual([]);
});

it("shows a failed build's error once, then builds again on the next request", async () => {
  const dir = freshDir();
  let fail = true;
  const { base, builds, built } = await site(dir, {
    isFresh: () => false,
    build: async (d) => {
      if (fail) throw new Error('console build: vite build failed (exit 1):\nsrc/main.tsx: Unexpected token');
      writeBuild(d);
    },
  });
  expect((await fetch(`${base}/console/`)).status).toBe(503);
  await built();
  const failed = await fetch(`${base}/console/`);
  expect(failed.status).toBe(500);
  expect(await failed.text()).toContain('src/main.tsx: Unexpected token');
  fail = false;
  expect((await fetch(`${base}/console/`)).status).toBe(503);
  await built();
  expect((await fetch(`${base}/console/`)).status).toBe(200);
  expect(builds).toEqual([dir, dir]);
});

it("answers the developer portal's page for every path under /console/portal/, the console's for the rest", async () => {
  const dir = freshDir();
  writeBuild(dir);
  mkdirSync(join(dir, 'portal'));
  writeFileSync(join(dir, 'portal', 'index.html'), '<title>Developer portal</title>');
  const { base } = await site(dir, { isFresh: () => true });
  for (const path of ['/console/portal', '/console/portal/', '/console/portal/acme/', '/console/portal/acme/keys/abc/usage'])
    expect(await (await fetch(`${base}${path}`)).text(), path).toBe('<title>Developer portal</title>');
  for (const path of ['/console/', '/console/developer-portal/requests', '/console/portals'])
    expect(await (await fetch(`${base}${path}`)).text(), path).toBe('<div id="app"></div>');
});
