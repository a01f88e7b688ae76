/** The builders every route group uses: path parameters typed from the template, names and handler files from the group. */
import * as z from 'zod';
import { ORG_LIMIT_TABLE_ACCESS, ORG_STANDING_TABLE_ACCESS, orgLimitOf, type RouteSpec, type TableAction } from './route-def';
import type { PermissionGroup } from './schemas/permissions';
import { idSchema } from './schemas/common';

type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | ParamNames<Rest> : never;
type PathParamsSchema<P extends string> = z.ZodObject<{ [K in ParamNames<P>]: typeof idSchema }>;

/** Path parameters derived from the template: every `{name}` is an id (contract §4). */
function pathParams<P extends string>(path: P): PathParamsSchema<P> | undefined {
  const names = [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]!);
  return (names.length ? z.object(Object.fromEntries(names.map((n) => [n, idSchema]))) : undefined) as PathParamsSchema<P> | undefined;
}

/**
 * A dashboard route must name its permission group (contract §9), or `none` for a read any active
 * user may make; other groups have none.
 */
type PermissionRule<D> = D extends { group: 'dashboard' }
  ? { permission: PermissionGroup | (D extends { access: 'read' } ? 'none' : never) }
  : { permission?: never };

/**
 * One route of the table; its path parameters are typed from the template unless it gives its
 * own. It must declare the table actions its code sends and the entities whose items it touches
 * (the cloud grants exactly those actions, on those entities' partitions), and a dashboard route
 * its permission group. What reading its organisation's standing and spending its organisation
 * limit send (every dashboard route does both) are added here, so no route declares them by hand.
 */
export function route<const D extends RouteSpec & { tableActions: readonly TableAction[]; tableEntities: readonly string[] }>(def: D & PermissionRule<D>) {
  const spends = orgLimitOf(def) !== undefined;
  const withLimit = <T extends string>(declared: readonly T[], ...added: T[]): readonly T[] => (spends ? [...new Set([...declared, ...added])] : declared);
  return {
    params: pathParams(def.path) as PathParamsSchema<D['path']>,
    ...def,
    tableActions: withLimit<TableAction>(def.tableActions, ORG_STANDING_TABLE_ACCESS.action, ORG_LIMIT_TABLE_ACCESS.action),
    tableEntities: withLimit<string>(def.tableEntities, ORG_STANDING_TABLE_ACCESS.entity, ORG_LIMIT_TABLE_ACCESS.entity),
  } as { params: PathParamsSchema<D['path']> } & D;
}

/**
 * The handler file of route `name` in the group whose folder is `folder`: the name without the
 * folder's prefix, in kebab case (`hooksCreate` in hooks is functions/hooks/create.ts,
 * `oasImport` in imports functions/imports/oas-import.ts).
 */
export function handlerEntry(folder: string, name: string): string {
  const own = name.startsWith(folder) && /^[A-Z]/.test(name.slice(folder.length)) ? name.slice(folder.length) : name;
  return `functions/${folder}/${own.replace(/^[A-Z]/, (c) => c.toLowerCase()).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.ts`;
}

/**
 * A route group: the routes whose handlers live in functions/<folder>/, each given its name and
 * handler file. Each route is also an export of the group's file, which its handler imports alone;
 * test/unit/route-table.test.ts keeps the exports and the group in step.
 */
export function routeGroup<G extends Record<string, RouteSpec>>(folder: string, routes: G): RouteGroup<G> {
  return Object.fromEntries(Object.entries(routes).map(([name, r]) => [name, { ...r, name, entry: handlerEntry(folder, name) }])) as RouteGroup<G>;
}

type RouteGroup<G> = { readonly [K in keyof G & string]: G[K] & { name: K; entry: string } };
