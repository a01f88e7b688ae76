/**
 * The route table agrees with the handler files (README "Layout"): one route group per folder of
 * functions/, every route's entry in its group's folder under a name its route name spells, each
 * handler wired to its own route through its own group, and one convention for path parameters.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { orgLimitOf, permissionOf } from '../../shared/route-def';
import { routeGroups, routeList, routes } from '../../shared/routes';

const camel = (kebab: string) => kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Handler files that are no route of the table: the HTTP API's $default route. */
const NOT_IN_TABLE = ['functions/system/fallback.ts', 'functions/hooks/change-feed.ts', 'functions/hooks/attempt-queue.ts'];

/** Path parameters that hold no id keep the reference spec's names; every id is `<thing>ID`. */
const NON_ID_PARAMS = ['keyHash', 'startDay', 'startMonth', 'startYear', 'EndDay', 'EndMonth', 'EndYear'];

const folders = readdirSync('functions', { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

describe('the route table and the handler files', () => {
  it('has one route group per folder of functions/, and the table is exactly their union', () => {
    expect(Object.keys(routeGroups).sort()).toEqual([...folders].sort());
    const grouped = Object.values(routeGroups).flatMap((g) => Object.keys(g));
    expect(grouped.sort()).toEqual(Object.keys(routes).sort());
    expect(new Set(grouped).size).toBe(grouped.length);
  });

  for (const [group, table] of Object.entries(routeGroups)) {
    for (const [name, route] of Object.entries(table)) {
      it(`${group}: ${name} lives in functions/${group}/ under a name it spells, and its handler uses it`, () => {
        const m = new RegExp(`^functions/${group}/([a-z][a-z-]*)\\.ts$`).exec(route.entry);
        expect(m, `${name}: entry ${route.entry} is not in functions/${group}/`).not.toBeNull();
        const file = m![1]!;
        expect([camel(file), camel(`${group}-${file}`)], `${name} vs ${route.entry}`).toContain(name);
        const source = readFileSync(route.entry, 'utf8');
        expect(source).toContain(`import { ${group}Routes as routes } from '../../shared/route-groups/${group}';`);
        expect(source).toMatch(new RegExp(`createHandler\\(routes\\.${name}\\b`));
      });
    }
  }

  it('has a route for every handler file, and a handler file for every route', () => {
    const files = folders.flatMap((f) => readdirSync(`functions/${f}`).filter((n) => n.endsWith('.ts')).map((n) => `functions/${f}/${n}`));
    const entries = routeList.map((r) => r.entry);
    expect([...entries, ...NOT_IN_TABLE].sort()).toEqual(files.sort());
  });

  it('names every id in a path <thing>ID, and keeps the spec names of the values that are no ids', () => {
    const params = [...new Set(routeList.flatMap((r) => [...r.path.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]!)))];
    const odd = params.filter((p) => !/^[a-z]+ID$/.test(p) && !NON_ID_PARAMS.includes(p));
    expect(odd).toEqual([]);
    expect(params).toEqual(expect.arrayContaining(['apiID', 'keyID', 'hookID', 'assetID', 'policyID', 'orgID', 'userID', 'clientID']));
  });
});

describe('permissions and per-organisation limits in the table (README "Credentials", "Limits")', () => {
  it('names a permission group on every dashboard route and on no other; the level is the route\'s access', () => {
    expect(routeList.filter((r) => r.group === 'dashboard' && !r.permission).map((r) => r.name)).toEqual([]);
    expect(routeList.filter((r) => r.group !== 'dashboard' && r.permission).map((r) => r.name)).toEqual([]);
    expect(permissionOf(routes.hooksCreate)).toEqual({ group: 'hooks', level: 'write' });
    expect(permissionOf(routes.hooksDeliveries)).toEqual({ group: 'hooks', level: 'read' });
    expect(permissionOf(routes.oasImport)).toEqual({ group: 'apis', level: 'write' });
    expect(permissionOf(routes.keysDashboardUpdate)).toEqual({ group: 'keys', level: 'write' });
    expect(permissionOf(routes.keyActivity)).toEqual({ group: 'analytics', level: 'read' });
    expect(permissionOf(routes.usersCreate)).toBeUndefined();
  });

  it('makes every dashboard write spend a limit, the webhook test and redelivery hookTest, and nothing else spend one', () => {
    const spending = routeList.filter((r) => orgLimitOf(r)).map((r) => `${r.name}:${orgLimitOf(r)}`);
    const writes = routeList.filter((r) => r.group === 'dashboard' && r.access === 'write');
    expect(spending.sort()).toEqual(writes.map((r) => `${r.name}:${['hooksTest', 'hooksRedeliver'].includes(r.name) ? 'hookTest' : 'writes'}`).sort());
    expect(routeList.filter((r) => r.orgLimit && !orgLimitOf(r)).map((r) => r.name), 'orgLimit on a route that spends none').toEqual([]);
  });

  it('declares UpdateItem (the counter\'s conditional ADD) on every route that spends a limit', () => {
    expect(routeList.filter((r) => orgLimitOf(r) && !r.tableActions?.includes('UpdateItem')).map((r) => r.name)).toEqual([]);
  });
});
