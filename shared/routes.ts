/**
 * THE route table. The CDK stack, the local stage, the OpenAPI document and the auth sweep tests
 * all loop over it.
 */
import type { RouteDef } from './route-def';
import { systemRoutes } from './route-groups/system';
import { usersRoutes } from './route-groups/users';
import { apisRoutes } from './route-groups/apis';
import { keysRoutes } from './route-groups/keys';
import { importsRoutes } from './route-groups/imports';
import { hooksRoutes } from './route-groups/hooks';
import { oauthRoutes } from './route-groups/oauth';
import { analyticsRoutes } from './route-groups/analytics';

/**
 * The whole table, assembled from its groups. A handler imports only its group
 * (shared/route-groups/<group>.ts), so a function builds only the schemas of its own routes at
 * cold start; the stack, the local stage, the OpenAPI document and the sweeps read this one.
 */
export const routes = {
  ...systemRoutes,
  ...usersRoutes,
  ...apisRoutes,
  ...keysRoutes,
  ...importsRoutes,
  ...hooksRoutes,
  ...oauthRoutes,
  ...analyticsRoutes,
} satisfies Record<string, RouteDef>;

export type RouteName = keyof typeof routes;
export const routeList: Array<RouteDef & { name: string }> = Object.entries(routes).map(([name, r]) => ({ name, ...r }));
