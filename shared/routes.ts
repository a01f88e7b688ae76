/**
 * THE route table. The CDK stack, the local stage, the OpenAPI document and the auth sweep tests
 * all loop over it.
 */
import type { RouteDef } from './route-def';
import { systemRoutes } from './route-groups/system';
import { organisationsRoutes } from './route-groups/organisations';
import { usersRoutes } from './route-groups/users';
import { apisRoutes } from './route-groups/apis';
import { importsRoutes } from './route-groups/imports';
import { keysRoutes } from './route-groups/keys';
import { policiesRoutes } from './route-groups/policies';
import { sessionsRoutes } from './route-groups/sessions';
import { assetsRoutes } from './route-groups/assets';
import { hooksRoutes } from './route-groups/hooks';
import { oauthRoutes } from './route-groups/oauth';
import { analyticsRoutes } from './route-groups/analytics';
import { auditRoutes } from './route-groups/audit';
import { routingRoutes } from './route-groups/routing';
import { billingRoutes } from './route-groups/billing';
import { portalRoutes } from './route-groups/portal';

/**
 * The route groups, one per folder of functions/ but system's 404/405 fallback, which is no route
 * of the table (test/unit/route-table.test.ts). A handler imports only its own route, an export of
 * its group's file (shared/route-groups/<folder>.ts), whose declarations are pure, so its bundle
 * builds only that route and the schemas its code reads at cold start; the stack, the local stage,
 * the OpenAPI document and the sweeps read the whole table.
 */
export const routeGroups = {
  system: systemRoutes,
  organisations: organisationsRoutes,
  users: usersRoutes,
  apis: apisRoutes,
  imports: importsRoutes,
  keys: keysRoutes,
  policies: policiesRoutes,
  sessions: sessionsRoutes,
  assets: assetsRoutes,
  hooks: hooksRoutes,
  oauth: oauthRoutes,
  analytics: analyticsRoutes,
  audit: auditRoutes,
  routing: routingRoutes,
  billing: billingRoutes,
  portal: portalRoutes,
} satisfies Record<string, Record<string, RouteDef>>;

export const routes = {
  ...systemRoutes,
  ...organisationsRoutes,
  ...usersRoutes,
  ...apisRoutes,
  ...importsRoutes,
  ...keysRoutes,
  ...policiesRoutes,
  ...sessionsRoutes,
  ...assetsRoutes,
  ...hooksRoutes,
  ...oauthRoutes,
  ...analyticsRoutes,
  ...auditRoutes,
  ...routingRoutes,
  ...billingRoutes,
  ...portalRoutes,
} satisfies Record<string, RouteDef>;

export type RouteName = keyof typeof routes;
export const routeList: RouteDef[] = Object.values(routes);
