/**
 * One data-plane API's routes and integrations made equal to the routing table's routes of one host
 * (shared/domain/apigw-plan.ts): the shared data-plane API's for the shared hosts, a per-domain
 * API's for its domain (./data-plane-domains.ts).
 */
import { planDataPlane, type DataPlaneApi, type RouteWrite } from '../domain/apigw-plan';
import type { RoutingTable } from './routing';

/** The routes and integrations of one data-plane API made equal to the table's routes of `host`. */
export async function applyRoutes(api: DataPlaneApi, table: RoutingTable, host: string, authorizerId: string, portalOrigin?: string) {
  const [routes, integrations] = await Promise.all([api.routes(), api.integrations()]);
  const plan = planDataPlane({ model: table, host, authorizerId, current: { routes, integrations }, ...(portalOrigin ? { portalOrigin } : {}) });
  const ids = new Map(integrations.flatMap((i) => (i.Description ? [[i.Description, i.IntegrationId] as const] : [])));
  const routeWrite = (spec: { RouteKey: string; integration: string; AuthorizationType: 'CUSTOM' | 'NONE'; AuthorizerId?: string }): RouteWrite => ({
    RouteKey: spec.RouteKey,
    Target: `integrations/${ids.get(spec.integration)}`,
    AuthorizationType: spec.AuthorizationType,
    ...(spec.AuthorizerId ? { AuthorizerId: spec.AuthorizerId } : {}),
  });
  // In the plan's order: integrations before the routes that name them, deletions last.
  for (const c of plan.changes) {
    if (c.op === 'createIntegration') ids.set(c.spec.Description, await api.createIntegration(c.spec));
    else if (c.op === 'updateIntegration') await api.updateIntegration(c.integrationId, c.spec);
    else if (c.op === 'createRoute') await api.createRoute(routeWrite(c.spec));
    else if (c.op === 'updateRoute') await api.updateRoute(c.routeId, routeWrite(c.spec));
    else if (c.op === 'deleteRoute') await api.deleteRoute(c.routeId);
    else await api.deleteIntegration(c.integrationId);
  }
  return { changes: plan.changes.length, skipped: plan.skipped };
}
