/** The routing table gateways follow. Part of the route table (shared/routes.ts). */
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import { routingTableSchema, routingVersionSchema } from '../schemas/routing';

export const routingRoutes = routeGroup('routing', {
  routingTable: route({
    method: 'GET',
    path: '/gw/routing',
    group: 'gateway',
    access: 'read',
    tableActions: ['BatchGetItem', 'Query'],
    tableEntities: ['api', 'api_part', 'domain_grant', 'routed_claim', 'routing_version'],
    summary: 'The routing table: every route the stored definitions ask of a gateway, per host, longest listen path first',
    description:
      'The gateway model of every definition and domain grant of the installation (docs/using/serving-apis.md): per host (a domain ' +
      'granted to an organisation, or "" for the shared hosts) the routes, longest listen path first, each with its upstreams, path ' +
      'handling, where the key is read, header rules, body limit, timeout and CORS; and the definitions left out, with the reason ' +
      '(inactive, a claim that breaks contract §13, an upstream a gateway cannot proxy to). version is the routing version it was read at.',
    success: 'The routing table',
    result: routingTableSchema,
  }),
  routingVersion: route({
    method: 'GET',
    path: '/gw/routing/version',
    group: 'gateway',
    access: 'read',
    tableActions: ['BatchGetItem'],
    tableEntities: ['routing_version'],
    summary: 'The routing version: it moves with every change of a definition or a domain grant',
    description: 'One cheap read for a gateway that follows the routing table: fetch GET /gw/routing only when the version moved.',
    success: 'The version, and when it last moved (null before any change)',
    result: routingVersionSchema,
  }),
}) satisfies Record<string, RouteDef>;
