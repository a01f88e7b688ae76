/** The routing table gateways follow. Part of the route table (shared/routes.ts). */
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import * as z from 'zod';
import { apiGatewaysSchema, GATEWAY_ID, gatewayReportSchema } from '../schemas/gateway-status';
import { routingTableSchema, routingVersionSchema } from '../schemas/routing';

export const routingTable = /* @__PURE__ */ (() =>
  route({
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
      '(inactive, a claim that breaks contract §13, an upstream a gateway cannot proxy to). A domain whose organisation serves its developer ' +
      'portal there names the portal and the paths that go to the control plane. version is the routing version it was read at.',
    success: 'The routing table',
    result: routingTableSchema,
  }))();

export const routingVersion = /* @__PURE__ */ (() =>
  route({
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
  }))();

export const routingGatewayReport = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/gw/gateways/{gatewayID}',
    group: 'gateway',
    access: 'write',
    tableActions: ['PutItem'],
    tableEntities: ['gateway_report'],
    summary: 'A gateway following the routing table reports what it serves (gwctl gateway nginx does, under --gateway-id)',
    description:
      "The report replaces the gateway's last one. Dashboard users see from it, per API, whether each gateway serves the API as it is " +
      "now (GET /api/apis/{apiID}/gateways); a gateway's own error text is never shown to them, as it may name other organisations' APIs.",
    success: 'Stored',
    params: z.object({ gatewayID: z.string().regex(GATEWAY_ID, 'a gateway id is 1-64 letters, digits, dots, dashes and underscores') }),
    body: gatewayReportSchema,
    result: z.object({ key: z.string(), status: z.literal('ok'), action: z.enum(['added', 'modified', 'deleted']) }),
  }))();

export const routingApiGateways = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/apis/{apiID}/gateways',
    group: 'dashboard',
    access: 'read',
    permission: 'apis',
    tableActions: ['BatchGetItem', 'GetItem', 'Query'],
    tableEntities: ['access_key', 'api', 'api_db_id', 'gateway_report', 'routing_version'],
    summary: "Where an API of the caller's organisation is live: each gateway that reports, and whether it serves the API as it is now",
    description:
      "The path holds the api_id or the 24-hex database id; another organisation's API is 404 like an unknown one. applied: the gateway " +
      'serves a routing table that holds the API as it is now; pending: not yet (with whether the gateway is failing to apply changes); ' +
      'left_out: the gateway cannot serve the API, and why (docs/using/serving-apis.md "Where an API is live").',
    success: 'The gateways, by id',
    statuses: { 404: "No such API in the caller's organisation" },
    result: apiGatewaysSchema,
  }))();

export const routingRoutes = /* @__PURE__ */ (() =>
  routeGroup('routing', {
    routingTable,
    routingVersion,
    routingGatewayReport,
    routingApiGateways,
  }))() satisfies Record<string, RouteDef>;
