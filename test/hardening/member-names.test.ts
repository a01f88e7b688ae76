/**
 * Prototype-like member names (RELIABILITY.md), generated from the route table: at every open
 * member of every write body (records, members of unknown type, objects that keep members they
 * do not name), `constructor`, `prototype`, `toString`, `hasOwnProperty` and `valueOf` are data
 * like any name: never a 5xx, and what a route accepts is found in the table exactly as sent.
 * `__proto__` is refused by the body parser (400). A new route is covered with no new test code.
 * Its own stage, so the table it reads back stays small.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeList } from '../../shared/routes';
import { startStage, type Stage } from '../support/stage';
import { RouteClient, routeKey } from '../support/route-client';
import { seedEveryRoute, type SeededWorld } from '../support/world';
import { baseOf } from './support/probe';
import { missingFromTable } from './support/snapshot';
import { memberNameCases } from './support/member-name-cases';

let s: Stage;
let c: RouteClient;
let seeded: SeededWorld;
const figures = { sent: 0, fivexx: 0, routes: 0, stored: 0 };

beforeAll(async () => {
  s = await startStage();
  c = new RouteClient(s.url);
  seeded = await seedEveryRoute(c, 'names');
}, 120_000);
afterAll(async () => {
  if (figures.sent)
    console.log(
      `prototype-like member names: ${figures.sent} requests over ${figures.routes} write routes, ` +
        `${figures.fivexx} answered 5xx, ${figures.stored} accepted and read back from the table`,
    );
  await s?.close();
});

describe('prototype-like member names at every open member of every write body', () => {
  const writes = routeList.filter((r) => r.access === 'write' && r.body);

  it('finds open members to aim at in the routes that store bodies as attributes', () => {
    for (const k of ['PUT /gw/org/keys/{orgID}', 'POST /admin/org/keys', 'POST /gw/keys/create', 'PUT /api/apis/{apiID}/keys/{keyID}']) {
      const r = writes.find((x) => routeKey(x) === k)!;
      expect(memberNameCases(r, baseOf(c, seeded, r), 't').filter((m) => m.stored).length, k).toBeGreaterThan(0);
    }
  });

  for (const r of writes) {
    it(`${r.method} ${r.path}: never 5xx, __proto__ 400, the other names stored as sent when accepted`, async () => {
      // A tag no other route's cases share: one route's stored values never answer for another's.
      const cases = memberNameCases(r, baseOf(c, seeded, r), `pn-${routeList.indexOf(r)}`);
      if (cases.length) figures.routes++;
      const failures: string[] = [];
      // One at a time: a replace would otherwise overwrite what the one before stored.
      for (const mc of cases) {
        const a = await c.send(r.method, mc.url, { headers: mc.headers, body: mc.body });
        figures.sent++;
        const problems: string[] = [];
        if (a.status >= 500) {
          figures.fivexx++;
          problems.push(`status ${a.status}`);
        }
        if (Object.hasOwn(mc.members, '__proto__') && a.status !== 400) problems.push(`status ${a.status}, not 400`);
        if (a.status < 300 && mc.stored) {
          const missing = await missingFromTable(s.table, mc.members);
          if (missing.length) problems.push(`accepted, but ${missing.join(', ')} not stored as sent`);
          else figures.stored++;
        }
        if (problems.length) failures.push(`${mc.path} ${JSON.stringify(mc.members).slice(0, 120)}: ${problems.join('; ')} :: ${a.text.slice(0, 200)}`);
      }
      expect(failures.slice(0, 25), `${failures.length} of ${cases.length} answers wrong (${routeKey(r)})`).toEqual([]);
    }, 120_000);
  }
});
