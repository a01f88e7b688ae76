/**
 * Bad-input fuzzing and response hygiene (RELIABILITY.md), generated from the route table: every
 * built route that takes a body or a query gets at least FUZZ_CASES (200) invalid requests sampled
 * with fast-check from a fixed seed, plus a few giant ones and bad path parameters; each must
 * answer 4xx in its group's envelope, never 5xx, and leave the whole table byte-identical. Every
 * answer seen here, success or error, must carry nosniff and no-store and leak no stack or storage
 * error. A new route is covered with no new test code.
 *
 * Reproduce a failure with the seed it prints: FUZZ_SEED=<seed> npx vitest run test/hardening/fuzz.test.ts
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeList } from '../../shared/routes';
import type { RouteDef } from '../../shared/route-def';
import { startStage, type Stage } from '../support/stage';
import { giantCases, invalidCases, pathCases, type FuzzCase } from './support/cases';
import { RouteClient, routeKey } from '../support/route-client';
import { seedEveryRoute, type SeededWorld } from '../support/world';
import { envelopeProblems, hygieneProblems } from './support/hygiene';
import { baseOf as seededBaseOf, probeSuccesses } from './support/probe';
import { diffSnapshots, snapshotTable } from './support/snapshot';
import { numberCases, STORED_AS_ATTRIBUTES } from './support/number-cases';
import { depthOf } from './support/member-name-cases';
import { documentRefusal } from '../support/document-check';

const SEED = Number(process.env.FUZZ_SEED ?? 7_2024);
const MIN_CASES = Number(process.env.FUZZ_CASES ?? 200);
const PATH_CASES = 30;
const CONCURRENCY = 8;

let s: Stage;
let c: RouteClient;
let seeded: SeededWorld;
/** Figures for the reliability record: route -> [invalid inputs sent, 5xx answers]. */
const figures = new Map<string, { sent: number; fivexx: number }>();
/** The same for the numbers storage cannot hold: requests, 5xx answers, routes. */
const numberFigures = { sent: 0, fivexx: 0, routes: 0 };

beforeAll(async () => {
  s = await startStage();
  c = new RouteClient(s.url);
  seeded = await seedEveryRoute(c, 'fuzz');
}, 120_000);
afterAll(async () => {
  if (figures.size) {
    const total = [...figures.values()].reduce((a, f) => ({ sent: a.sent + f.sent, fivexx: a.fivexx + f.fivexx }), { sent: 0, fivexx: 0 });
    console.log(`fuzz seed ${SEED}: ${total.sent} invalid requests over ${figures.size} routes, ${total.fivexx} answered 5xx`);
  }
  if (numberFigures.sent)
    console.log(
      `unstorable numbers, seed ${SEED}: ${numberFigures.sent} requests over ${numberFigures.routes} write routes, ${numberFigures.fivexx} answered 5xx`,
    );
  await s?.close();
});

/** Per-route seed: stable when other routes are added or removed. */
function seedOf(r: RouteDef): number {
  let h = SEED;
  for (const ch of routeKey(r)) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h >>> 0;
}

const baseOf = (r: RouteDef) => seededBaseOf(c, seeded, r);

async function pool<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

const fuzzed = routeList.filter((r) => r.body || r.bodyKind === 'raw' || r.query || r.path.includes('{'));

describe(`bad-input fuzzing over the route table (seed ${SEED})`, () => {
  it('seeds one object of every kind through the API, naming each path parameter of the table', () => {
    const names = [...new Set(routeList.flatMap((r) => [...r.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!)))];
    expect(
      names.filter((n) => !(n in seeded.params)),
      'path parameters the seed names no object for',
    ).toEqual([]);
    expect(fuzzed.length).toBeGreaterThan(0);
  });

  for (const r of fuzzed) {
    it(`${r.method} ${r.path} (${r.group})`, async () => {
      const base = baseOf(r);
      const seed = seedOf(r);
      const invalid = await invalidCases(r, base, seed, MIN_CASES);
      if (r.body || r.bodyKind === 'raw' || r.query) expect(invalid.length, `invalid inputs generated (seed ${seed})`).toBeGreaterThanOrEqual(MIN_CASES);
      const giant = giantCases(r, base);
      const paths = pathCases(r, base, seed, PATH_CASES);

      const failures: string[] = [];
      let fivexx = 0;
      const statuses = new Map<number, number>();
      const run = async (fc: FuzzCase) => {
        const a = await c.send(r.method, fc.url, { headers: fc.headers, body: fc.body });
        const problems: string[] = [];
        if (a.status >= 500) fivexx++;
        if (fc.expect !== undefined ? a.status !== fc.expect : a.status < 400 || a.status >= 500)
          problems.push(`status ${a.status}${fc.expect ? ` (expected ${fc.expect})` : ''}`);
        // Valid credentials: a 401/403 would mean the input never reached validation, except on a
        // route that judges a forwarded request (its 401/403 are about the forwarded caller's key).
        if ((a.status === 401 || a.status === 403) && !r.refusalHeaders) problems.push(`status ${a.status} with valid credentials`);
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
        if (a.status >= 400) problems.push(...envelopeProblems(r.group, a));
        problems.push(...hygieneProblems(a));
        if (problems.length) {
          const sent = typeof fc.body === 'string' ? JSON.stringify(fc.body.slice(0, 160)) : fc.body ? '(bytes)' : '';
          failures.push(
            `[${fc.label}] ${r.method} ${fc.url.slice(0, 160)} ${JSON.stringify(fc.headers)} ${sent} -> ${problems.join('; ')} :: ${a.text.slice(0, 240)}`,
          );
        }
      };

      const before = await snapshotTable(s.table);
      await pool([...invalid, ...paths], CONCURRENCY, run);
      await pool(giant, 2, run);
      const after = await snapshotTable(s.table);
      figures.set(routeKey(r), { sent: invalid.length + giant.length + paths.length, fivexx });
      if (process.env.FUZZ_VERBOSE)
        console.log(
          `${routeKey(r)}: ${invalid.length} invalid + ${giant.length} giant + ${paths.length} path; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
        );

      const where = `route ${routeKey(r)}, seed ${seed} (FUZZ_SEED=${SEED})`;
      expect(failures.slice(0, 25), `${failures.length} bad answers; ${where}`).toEqual([]);
      expect(diffSnapshots(before, after).slice(0, 10), `stored changes after refused requests; ${where}`).toEqual([]);
    });
  }
});

describe(`numbers storage cannot hold, at every number of every write body (seed ${SEED})`, () => {
  const writes = routeList.filter((r) => r.access === 'write' && r.body);

  it('covers the routes whose bodies are stored as DynamoDB attributes', () => {
    const keys = writes.map(routeKey);
    expect(
      STORED_AS_ATTRIBUTES.filter((k) => !keys.includes(k)),
      'listed routes missing from the table',
    ).toEqual([]);
    expect(
      writes.filter((r) => depthOf(r).stored && !STORED_AS_ATTRIBUTES.includes(routeKey(r))).map(routeKey),
      'routes whose schema stores the body as attributes, missing from the list',
    ).toEqual([]);
  });

  for (const r of writes) {
    const stored = STORED_AS_ATTRIBUTES.includes(routeKey(r));
    it(`${r.method} ${r.path}: ${stored ? 'always 400 naming the field, nothing stored' : 'never 5xx'}`, async () => {
      const base = baseOf(r);
      const cases = numberCases(r, base, seedOf(r));
      if (cases.length) numberFigures.routes++;
      // A body with no number and no open member (the check's) has nothing to aim at.
      if (stored) expect(cases.length, 'number cases generated').toBeGreaterThan(0);
      const failures: string[] = [];
      const before = await snapshotTable(s.table);
      let accepted = 0;
      await pool(cases, CONCURRENCY, async (nc) => {
        const a = await c.send(r.method, nc.url, { headers: nc.headers, body: nc.body });
        numberFigures.sent++;
        if (a.status >= 500) numberFigures.fivexx++;
        if (a.status < 300) accepted++;
        const problems: string[] = [];
        // Elsewhere any answer but a 5xx is the route's business (a compressed definition takes
        // such a number; concurrent replaces of one API may meet a 412).
        if (a.status >= 500) problems.push(`status ${a.status}`);
        if (stored) {
          if (a.status !== 400) problems.push(`status ${a.status}, not 400`);
          else {
            const b = a.body as { errors?: Array<{ path: string }>; Meta?: { errors?: Array<{ path: string }> } };
            const paths = (b.errors ?? b.Meta?.errors ?? []).map((e) => e.path);
            if (!paths.includes(nc.path)) problems.push(`the 400 names ${JSON.stringify(paths)}, not ${nc.path}`);
          }
        }
        // The document says the same (StoredNumber), in declared members and open ones alike.
        if (a.status === 400 && stored && !(await documentRefusal(r.method, nc.url, JSON.parse(nc.body))).length) problems.push('the document admits it');
        if (problems.length) failures.push(`${nc.path} = ${nc.number}: ${problems.join('; ')} :: ${a.text.slice(0, 200)}`);
      });
      const after = await snapshotTable(s.table);
      expect(failures.slice(0, 25), `${failures.length} of ${cases.length} answers wrong (${routeKey(r)}, FUZZ_SEED=${SEED})`).toEqual([]);
      // Nothing a refusal touched may change; routes that accepted some number changed the table legitimately.
      if (accepted === 0) expect(diffSnapshots(before, after).slice(0, 10), 'stored changes after refused requests').toEqual([]);
    });
  }
});

describe('response hygiene on every route', () => {
  it('unknown paths and methods (404, 405) carry the same headers in the prefix envelope', async () => {
    for (const [method, url, group] of [
      ['GET', '/nope', 'dashboard'],
      ['GET', '/gw/nope', 'gateway'],
      ['GET', '/admin/nope', 'admin'],
      ['PATCH', '/gw/apis', 'gateway'],
    ] as const) {
      const a = await c.send(method, url);
      expect([404, 405], url).toContain(a.status);
      expect(hygieneProblems(a), url).toEqual([]);
      expect(envelopeProblems(group, a), url).toEqual([]);
    }
  });

  it('every route answers 2xx at least once (seed, then a success probe of the rest), and every answer of this file was hygienic', async () => {
    // Reads, replaces of what was read, then deletes: last in the file, as they change the world.
    await probeSuccesses(c, seeded);
    const noSuccess = routeList.map(routeKey).filter((k) => !c.seen.get(k)?.ok);
    expect(noSuccess, 'routes never seen answering 2xx (add a step to seedEveryRoute in test/support/world.ts)').toEqual([]);
    const unhygienic = [...c.seen.entries()].flatMap(([, v]) => v.hygiene);
    expect(unhygienic.slice(0, 20), 'answers without nosniff/no-store or leaking internals').toEqual([]);
  });
});
