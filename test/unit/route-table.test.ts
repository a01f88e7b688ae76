/**
 * The route table agrees with the handler files (docs/developing/layout.md): one route group per folder of
 * functions/, every route's handler file derived from its group and name, each handler wired to
 * its own route imported alone from its group's file (which exports exactly the routes its group
 * lists), one convention for path parameters, and the entry the one
 * place of a route's statuses (handlers and docs/reference/routes.md follow it). Every route has each of the
 * places CONTRIBUTING.md's checklist names.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { handlerEntry } from '../../shared/route-builders';
import { orgLimitOf, permissionOf } from '../../shared/route-def';
import { routeGroups, routeList, routes } from '../../shared/routes';
import { END, ROUTES_DOCUMENT, routesMarkdown, sectionOf, START } from '../../scripts/routes-table';

/**
 * Handler files that are no route of the table: the HTTP API's $default route, the webhook
 * pipeline's consumers, the audit trail's, and the data plane's authorizer and reconciler.
 */
const NOT_IN_TABLE = [
  'functions/system/fallback.ts',
  'functions/routing/data-plane-reconcile.ts',
  'functions/sessions/authorizer.ts',
  'functions/hooks/change-feed.ts',
  'functions/hooks/attempt-queue.ts',
  'functions/audit/change-feed.ts',
  'functions/billing/change-feed.ts',
  'functions/organisations/offboarding-feed.ts',
  'functions/organisations/import-feed.ts',
];

/** Path parameters that hold no id keep the reference spec's names (proxy+: API Gateway's greedy path); every id is `<thing>ID`. */
// keyRef names a key in any of its forms (id, hash or user name, as the query says): no one id.
const NON_ID_PARAMS = ['keyHash', 'keyRef', 'domain', 'proxy+', 'startDay', 'startMonth', 'startYear', 'EndDay', 'EndMonth', 'EndYear'];

const folders = readdirSync('functions', { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const handlerFiles = folders.flatMap((f) =>
  readdirSync(`functions/${f}`)
    .filter((n) => n.endsWith('.ts'))
    .map((n) => `functions/${f}/${n}`),
);

describe('the route table and the handler files', () => {
  it('has one route group per folder of functions/, and the table is exactly their union', () => {
    expect(Object.keys(routeGroups).sort()).toEqual([...folders].sort());
    const grouped = Object.values(routeGroups).flatMap((g) => Object.keys(g));
    expect(grouped.sort()).toEqual(Object.keys(routes).sort());
    expect(new Set(grouped).size).toBe(grouped.length);
  });

  it('derives a handler file from the group and the route name', () => {
    expect(handlerEntry('hooks', 'hooksCreate')).toBe('functions/hooks/create.ts');
    expect(handlerEntry('imports', 'oasImport')).toBe('functions/imports/oas-import.ts');
    expect(handlerEntry('keys', 'apiKeysUpdate')).toBe('functions/keys/api-keys-update.ts');
    expect(handlerEntry('users', 'usersRotateAccessKey')).toBe('functions/users/rotate-access-key.ts');
    expect(handlerEntry('analytics', 'keyActivity')).toBe('functions/analytics/key-activity.ts');
    expect(routes.oasImport.entry).toBe('functions/imports/oas-import.ts');
  });

  for (const [group, table] of Object.entries(routeGroups)) {
    for (const [name, route] of Object.entries(table)) {
      it(`${group}: ${name}'s handler file answers it with its own route, imported alone from its group's file`, () => {
        expect(route.name).toBe(name);
        expect(route.entry).toBe(handlerEntry(group, name));
        const source = readFileSync(route.entry, 'utf8');
        // Its own export, not the group: the bundle then holds no other route of the group (test/infra/bundles.test.ts).
        const imported = new RegExp(`import \\{ ${name}(?: as (\\w+))? \\} from '\\.\\./\\.\\./shared/route-groups/${group}';`).exec(source);
        expect(imported, `${route.entry} imports ${name} from shared/route-groups/${group}`).not.toBeNull();
        expect(source).toMatch(new RegExp(`createHandler\\(${imported?.[1] ?? name}\\b`));
        expect(source).not.toMatch(/Routes\b/);
      });
    }
    it(`${group}: its file exports each route its group lists, and lists each route it exports`, async () => {
      const file = (await import(`../../shared/route-groups/${group}.ts`)) as Record<string, unknown>;
      const exported = Object.entries(file).filter(([, v]) => typeof v === 'object' && v !== null && 'method' in v && 'path' in v);
      expect(exported.map(([n]) => n).sort()).toEqual(Object.keys(table).sort());
      for (const [n, spec] of exported) expect(table[n as keyof typeof table]).toEqual({ ...(spec as object), name: n, entry: handlerEntry(group, n) });
    });
  }

  it('has a route for every handler file, and a handler file for every route', () => {
    const entries = routeList.map((r) => r.entry);
    expect([...entries, ...NOT_IN_TABLE].sort()).toEqual([...handlerFiles].sort());
  });

  it('names every id in a path <thing>ID, and each value that is no id by what it holds', () => {
    const params = [...new Set(routeList.flatMap((r) => [...r.path.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]!)))];
    const odd = params.filter((p) => !/^[a-z]+ID$/.test(p) && !NON_ID_PARAMS.includes(p));
    expect(odd).toEqual([]);
    expect(params).toEqual(expect.arrayContaining(['apiID', 'keyRef', 'keyHash', 'hookID', 'assetID', 'policyID', 'orgID', 'userID', 'clientID']));
  });
});

describe("the entry is the one place of a route's statuses", () => {
  it('declares them apart from the summary: no summary names a status, and each declared one has a meaning', () => {
    expect(routeList.filter((r) => /\b[2-5]\d\d (?:[a-z]|when|for)/.test(r.summary)).map((r) => `${r.name}: ${r.summary}`)).toEqual([]);
    for (const r of routeList) for (const [status, meaning] of Object.entries(r.statuses ?? {})) expect(meaning, `${r.name} ${status}`).toMatch(/^\S.{3,}$/);
  });

  it("leaves statuses out of the handlers' comments (a handler says which route it answers, the entry what it answers)", () => {
    const listing = handlerFiles.filter((f) => /\b[45]\d\d\b/.test([...readFileSync(f, 'utf8').matchAll(/\/\*[\s\S]*?\*\/|\/\/.*$/gm)].join('\n')));
    expect(listing).toEqual([]);
  });

  it('shows every declared status and its meaning in the routes table of docs/reference/routes.md', () => {
    const table = routesMarkdown();
    for (const r of routeList) {
      for (const [status, meaning] of Object.entries(r.statuses ?? {})) expect(table).toContain(`${status} ${meaning!.replace(/\|/g, '\\|')}`);
    }
  });
});

describe('permissions and per-organisation limits in the table (docs/using/permissions.md, docs/reference/limits.md)', () => {
  it("names a permission group on every dashboard route and on no other; the level is the route's access", () => {
    expect(routeList.filter((r) => r.group === 'dashboard' && !r.permission).map((r) => r.name)).toEqual([]);
    expect(routeList.filter((r) => r.group !== 'dashboard' && r.permission).map((r) => r.name)).toEqual([]);
    expect(permissionOf(routes.hooksCreate)).toEqual({ group: 'hooks', level: 'write' });
    expect(permissionOf(routes.hooksDeliveries)).toEqual({ group: 'hooks', level: 'read' });
    expect(permissionOf(routes.oasImport)).toEqual({ group: 'apis', level: 'write' });
    expect(permissionOf(routes.apiKeysUpdate)).toEqual({ group: 'keys', level: 'write' });
    expect(permissionOf(routes.keyActivity)).toEqual({ group: 'analytics', level: 'read' });
    expect(permissionOf(routes.usersCreate)).toBeUndefined();
  });

  it('makes every dashboard write spend a limit, the webhook test and redelivery hookTest, every dashboard read reads, every portal route portal', () => {
    const spending = routeList.filter((r) => orgLimitOf(r)).map((r) => `${r.name}:${orgLimitOf(r)}`);
    const portalSide = (r: (typeof routeList)[number]) => r.path.startsWith('/portal/');
    const spenders = routeList.filter((r) => r.group === 'dashboard' || portalSide(r));
    const classOf = (r: (typeof spenders)[number]) =>
      portalSide(r) ? 'portal' : r.access === 'read' ? 'reads' : ['hooksTest', 'hooksRedeliver'].includes(r.name) ? 'hookTest' : 'writes';
    expect(spending.sort()).toEqual(spenders.map((r) => `${r.name}:${classOf(r)}`).sort());
    expect(
      routeList.filter((r) => r.orgLimit && !orgLimitOf(r)).map((r) => r.name),
      'orgLimit on a route that spends none',
    ).toEqual([]);
  });

  it("declares UpdateItem (the counter's conditional ADD) and the counter's entity on every route that spends a limit", () => {
    expect(routeList.filter((r) => orgLimitOf(r) && !r.tableActions?.includes('UpdateItem')).map((r) => r.name)).toEqual([]);
    expect(routeList.filter((r) => orgLimitOf(r) && !r.tableEntities?.includes('org_limit')).map((r) => r.name)).toEqual([]);
  });
});

describe('every route has each of its places (CONTRIBUTING.md, "Adding a route")', () => {
  const routesTable = sectionOf(readFileSync(ROUTES_DOCUMENT, 'utf8'), START, END) ?? '';
  const contract = JSON.parse(readFileSync('tools/gwctl/generated/openapi.json', 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  const consoleTypes = readFileSync('console/src/api/openapi.d.ts', 'utf8');

  /** The places a route misses, each with what puts it there. */
  function missing(r: (typeof routeList)[number]): string[] {
    // The document names a greedy parameter without API Gateway's `+`, and an ANY route by each of its methods.
    const path = r.path.replace('+}', '}');
    const method = r.method === 'ANY' ? 'get' : r.method.toLowerCase();
    return [
      !existsSync(r.entry) && `its handler file ${r.entry}`,
      !r.tableActions && 'tableActions in its entry (the table actions its code sends)',
      !r.tableEntities && 'tableEntities in its entry (the items it touches)',
      !routesTable.includes(`| ${r.method} | \`${r.path}\` |`) && `its row in ${ROUTES_DOCUMENT}'s routes table (npm run generate)`,
      !contract.paths[path]?.[method] && "its operation in gwctl's copy of the document (npm run generate)",
      !consoleTypes.includes(`"${path}": {`) && "its path in the console's client types (npm run generate)",
    ].filter((m): m is string => typeof m === 'string');
  }

  for (const r of routeList) {
    it(`${r.method} ${r.path} (${r.name})`, () => {
      expect(missing(r), 'add it').toEqual([]);
    });
  }

  it('finds a route that misses its places', () => {
    const stray = { ...routes.hooksList, name: 'hooksArchive', path: '/api/hooks/{hookID}/archive', entry: 'functions/hooks/archive.ts' };
    const { tableActions: _actions, ...undeclared } = stray;
    expect(missing(undeclared as typeof stray)).toEqual([
      'its handler file functions/hooks/archive.ts',
      'tableActions in its entry (the table actions its code sends)',
      `its row in ${ROUTES_DOCUMENT}'s routes table (npm run generate)`,
      "its operation in gwctl's copy of the document (npm run generate)",
      "its path in the console's client types (npm run generate)",
    ]);
  });
});
