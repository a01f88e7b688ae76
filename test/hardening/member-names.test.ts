/**
 * Member names and nesting (RELIABILITY.md), generated from the route table: at every open member
 * of every write body (records, members of unknown type, objects that keep members they do not
 * name):
 * - `constructor`, `prototype`, `toString`, `hasOwnProperty` and `valueOf` are data like any
 *   name: never a 5xx, and what a route accepts is found in the table exactly as sent.
 *   `__proto__` is refused by the body parser (400);
 * - a name storage cannot hold (`""`, one over 1,024 characters) and a member nested one level
 *   past what the route takes: where the body is stored as attributes, 400 naming the member and
 *   nothing changed; elsewhere (definitions and templates, stored compressed) stored as sent, and
 *   past the parser's 64 levels 400 naming the member. Nested to the deepest level a route takes,
 *   a member is stored as sent. The published document refuses each name a route refuses, admits
 *   every body a route accepts, and gives each stored body's depth as `x-stored-depth`.
 * A new route is covered with no new test code. Its own stage, so the table it reads back stays small.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_LIMIT_MAX } from '../../shared/limits';
import { routeList } from '../../shared/routes';
import { startStage, type Stage } from '../support/stage';
import { RouteClient, routeKey } from '../support/route-client';
import { seedEveryRoute, type SeededWorld } from '../support/world';
import { baseOf } from './support/probe';
import { concretePath, type BaseRequest } from './support/cases';
import type { RouteDef } from '../../shared/route-def';
import { diffSnapshots, snapshotTable } from './support/snapshot';
import { followWrites, missingFromWrites, type WrittenItems } from './support/written-items';
import { depthOf, memberNameCases, storageCases, type StorageCase, type StorageGroup } from './support/member-name-cases';
import { documentRefusal } from '../support/document-check';
import { documentPath, openApiDocument } from '../../shared/openapi/document';

let s: Stage;
let c: RouteClient;
let seeded: SeededWorld;
/** What the cases write, read back item by item (a scan per accepted case was most of this file's time). */
let written: WrittenItems;
const figures = { sent: 0, fivexx: 0, routes: 0, stored: 0 };
/** The same for names storage cannot hold and nesting: requests, 5xx, routes, 400s, read back. */
const storage = { sent: 0, fivexx: 0, routes: 0, refused: 0, stored: 0 };

beforeAll(async () => {
  // Thousands of dashboard writes in a few minutes: the organisation's write limit is not the subject here.
  process.env.ORG_WRITE_LIMIT = String(ORG_LIMIT_MAX);
  s = await startStage();
  c = new RouteClient(s.url);
  // The dashboard's own objects stay: every route's recorded request then finds what it names.
  seeded = await seedEveryRoute(c, 'names', undefined, { keepSelfService: true });
  written = await followWrites(s.table);
}, 120_000);
afterAll(async () => {
  if (figures.sent)
    console.log(
      `prototype-like member names: ${figures.sent} requests over ${figures.routes} write routes, ` +
        `${figures.fivexx} answered 5xx, ${figures.stored} accepted and read back from the table`,
    );
  if (storage.sent)
    console.log(
      `names storage cannot hold and nesting: ${storage.sent} requests over ${storage.routes} write routes, ${storage.fivexx} answered 5xx, ` +
        `${storage.refused} refused with 400 naming the member, ${storage.stored} accepted and read back from the table`,
    );
  await s?.close();
  delete process.env.ORG_WRITE_LIMIT;
});

describe('prototype-like member names at every open member of every write body', () => {
  const writes = routeList.filter((r) => r.access === 'write' && r.body);

  it('finds open members to aim at in the routes that store bodies as attributes', () => {
    for (const k of ['PUT /gw/org/keys/{orgID}', 'POST /admin/org/keys', 'POST /gw/keys/create', 'PUT /api/apis/{apiID}/keys/{keyRef}']) {
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
          const missing = await missingFromWrites(written, Object.entries(mc.members));
          if (missing.length) problems.push(`accepted, but ${missing.map(([name]) => name).join(', ')} not stored as sent`);
          else figures.stored++;
        }
        if (problems.length) failures.push(`${mc.path} ${JSON.stringify(mc.members).slice(0, 120)}: ${problems.join('; ')} :: ${a.text.slice(0, 200)}`);
      }
      expect(failures.slice(0, 25), `${failures.length} of ${cases.length} answers wrong (${routeKey(r)})`).toEqual([]);
    }, 120_000);
  }
});

/**
 * The route's accepted seed request; for a replace the seed did not make, what a read of the same
 * path answers (a schema sample would name another object than the path).
 */
async function liveBaseOf(r: RouteDef): Promise<BaseRequest> {
  const base = baseOf(c, seeded, r);
  const read = routeList.find((x) => x.method === 'GET' && x.path === r.path);
  if (c.bases.has(routeKey(r)) || r.method !== 'PUT' || !read) return base;
  const got = await c.send('GET', concretePath(read.path, base.params));
  return got.status === 200 ? { ...base, body: { text: JSON.stringify(got.body), contentType: 'application/json', value: got.body } } : base;
}

describe('names storage cannot hold and nesting, at every open member of every write body', () => {
  const writes = routeList.filter((r) => r.access === 'write' && r.body);
  const paths = (a: { body: unknown }) => {
    const b = a.body as { errors?: Array<{ path: string }>; Meta?: { errors?: Array<{ path: string }> } } | undefined;
    return (b?.errors ?? b?.Meta?.errors ?? []).map((e) => e.path);
  };

  it('knows which routes store their body as attributes, and the document gives each its depth', async () => {
    const stored = writes.filter((r) => depthOf(r).stored).map(routeKey);
    expect(stored).toEqual(expect.arrayContaining(['POST /gw/keys/create', 'POST /gw/policies', 'POST /admin/organisations', 'POST /gw/oauth/clients/create']));
    // The request body as the document has it, its component references followed one level.
    const doc = openApiDocument() as Record<string, any>;
    const resolve = (v: any): any =>
      typeof v?.$ref === 'string' ? doc.components.schemas[v.$ref.split('/').at(-1)] : Array.isArray(v?.allOf) ? { ...v, allOf: v.allOf.map(resolve) } : v;
    for (const r of writes) {
      const { depth, stored: attributes } = depthOf(r);
      const op = doc.paths[documentPath(r.path)][r.method.toLowerCase()];
      const schema = JSON.stringify(Object.values(op.requestBody.content as Record<string, { schema: unknown }>).map((m) => resolve(m.schema)));
      if (attributes) expect(schema, routeKey(r)).toContain(`"x-stored-depth":${depth}`);
      else expect(schema, routeKey(r)).not.toContain('"x-stored-depth"');
    }
  });

  for (const r of writes) {
    const { depth, stored: attributes } = depthOf(r);
    const title = attributes ? `400 naming the member, nothing stored; ${depth} levels stored as sent` : 'stored as sent, never 5xx';
    it(`${r.method} ${r.path}: ${title}`, async () => {
      const groups = storageCases(r, await liveBaseOf(r), `sn-${routeList.indexOf(r)}`);
      if (groups.length) storage.routes++;
      if (attributes) expect(groups.length, 'open members to aim at').toBeGreaterThan(0);
      const failures: string[] = [];
      const send = async (k: StorageCase) => {
        const a = await c.send(r.method, k.url, { headers: k.headers, body: k.body });
        storage.sent++;
        if (a.status >= 500) storage.fivexx++;
        return a;
      };
      /**
       * Accepted cases of a create, read back from the table together once the route's cases are
       * sent; a replace overwrites what the one before stored, so its cases are read back at once.
       */
      const acceptedCases: StorageCase[] = [];
      /** Problems of an accepted case: the document must admit it, and the table hold it as sent. */
      const accepted = async (k: StorageCase) => {
        const refusal = await documentRefusal(r.method, k.url, JSON.parse(k.body), k.headers['content-type']);
        const problems = refusal.length ? [`accepted, but the document refuses it: ${refusal.slice(0, 2).join('; ')}`] : [];
        if (k.stored && r.method === 'POST') acceptedCases.push(k);
        else if (k.stored) {
          const missing = await missingFromWrites(written, Object.entries(k.members));
          if (missing.length) problems.push(`accepted, but ${missing.map(([name]) => name.slice(0, 20) || '""').join(', ')} not stored as sent`);
          else storage.stored++;
        }
        return problems;
      };
      // The control differs only in the oddity: when the route refuses it too, the member is not one
      // a valid body can hold here (a record of typed values), and only "never 5xx" is asked.
      const clean = new Map<StorageGroup, boolean>();
      for (const g of groups) clean.set(g, (await send(g.control)).status < 300);
      const refused = (k: StorageCase) => k.kind === 'too deep' || (attributes && k.kind !== 'deepest');
      // Every refusal, the table compared around them all where a write could follow one (stored
      // bodies; elsewhere the parser refuses before any handler runs).
      const before = attributes ? await snapshotTable(s.table) : undefined;
      for (const g of groups) {
        for (const k of g.cases.filter(refused)) {
          const a = await send(k);
          const problems: string[] = [];
          if (a.status >= 500) problems.push(`status ${a.status}`);
          else if (a.status !== 400) problems.push(`status ${a.status}, not 400`);
          else if (clean.get(g) && !paths(a).some((p) => p.startsWith(k.refusedAt))) {
            problems.push(`the 400 names ${JSON.stringify(paths(a)).slice(0, 160)}, not ${k.refusedAt.slice(0, 120)}`);
          } else storage.refused++;
          // What JSON Schema can say, the document says: a name storage refuses (nesting: x-stored-depth).
          if (clean.get(g) && k.kind !== 'too deep' && !(await documentRefusal(r.method, k.url, JSON.parse(k.body), k.headers['content-type'])).length)
            problems.push('the document admits it');
          if (problems.length) failures.push(`[${k.kind}] ${k.path.slice(0, 80)}: ${problems.join('; ')} :: ${a.text.slice(0, 200)}`);
        }
      }
      const changed = before ? diffSnapshots(before, await snapshotTable(s.table)) : [];
      if (changed.length) failures.push(`refused requests changed the table: ${changed.slice(0, 3).join('; ').slice(0, 300)}`);
      for (const g of groups) {
        for (const k of g.cases.filter((x) => !refused(x))) {
          const a = await send(k);
          const problems: string[] = [];
          if (a.status >= 500) problems.push(`status ${a.status}`);
          else if (a.status < 300) problems.push(...(await accepted(k)));
          else if (clean.get(g) && attributes) problems.push(`status ${a.status}: the deepest body storage holds was refused`);
          if (problems.length) failures.push(`[${k.kind}] ${k.path.slice(0, 80)}: ${problems.join('; ')} :: ${a.text.slice(0, 200)}`);
        }
      }
      // One read of what the route's cases wrote for every accepted case (each member's value is unique to its case).
      const entries = acceptedCases.flatMap((k) => Object.entries(k.members).map((e) => ({ e: e as readonly [string, unknown], k })));
      const missing = new Set(
        await missingFromWrites(
          written,
          entries.map((x) => x.e),
        ),
      );
      storage.stored += entries.length - missing.size;
      for (const { e, k } of entries) {
        if (missing.has(e)) failures.push(`[${k.kind}] ${k.path.slice(0, 80)}: accepted, but ${e[0].slice(0, 20) || '""'} not stored as sent`);
      }
      expect(failures.slice(0, 25), `${failures.length} answers wrong over ${groups.length} open members (${routeKey(r)})`).toEqual([]);
    }, 300_000);
  }
});
