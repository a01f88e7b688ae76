/** The builder every route group uses: path parameters typed from the template. */
import * as z from 'zod';
import type { RouteDef, TableAction } from './route-def';
import type { PermissionGroup } from './schemas/permissions';
import { idSchema } from './schemas/common';

type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | ParamNames<Rest> : never;
export type PathParamsSchema<P extends string> = z.ZodObject<{ [K in ParamNames<P>]: typeof idSchema }>;

/** Path parameters derived from the template: every `{name}` is an id (contract §4). */
export function pathParams<P extends string>(path: P): PathParamsSchema<P> | undefined {
  const names = [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]!);
  return (names.length ? z.object(Object.fromEntries(names.map((n) => [n, idSchema]))) : undefined) as PathParamsSchema<P> | undefined;
}

/** A dashboard route must name its permission group (contract §9); other groups have none. */
type PermissionRule<D> = D extends { group: 'dashboard' } ? { permission: PermissionGroup } : { permission?: never };

/**
 * One route of the table; its path parameters are typed from the template unless it gives its
 * own. It must declare the table actions its code sends (the cloud grants exactly those), and a
 * dashboard route its permission group.
 */
export function route<const D extends RouteDef & { tableActions: readonly TableAction[] }>(def: D & PermissionRule<D>) {
  return { params: pathParams(def.path) as PathParamsSchema<D['path']>, ...def };
}
