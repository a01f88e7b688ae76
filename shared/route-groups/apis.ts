/** API definitions: classic and OAS writes and reads, versions, listing and deletion. Part of the route table (shared/routes.ts). */
import { route, routeGroup } from '../route-builders';
import { SHARED_CAUSES as causes, type RouteDef } from '../route-def';
import { gatewayWriteSchema } from '../schemas/common';
import { classicApiSchema } from '../schemas/api-classic';
import { oasDocumentSchema, oasWriteBodySchema } from '../schemas/api-oas';
import { apiListQuerySchema, apiListSchema, oasGetQuerySchema } from '../schemas/apis';
import { versionQuerySchema } from '../schemas/import';

const versions =
  'With base_api_id the API becomes a version of that base (an OAS API of the same organisation; new_version_name is then required), ' +
  'both written in one transaction.';
/** The body's JSON Schema: a whole document or the bare extension (shared/openapi/components.ts). */
const oasWriteBody = { $ref: '#/components/schemas/OasWriteBody' };
const storedTooLarge = `A stored definition is too large to read: ${causes.storedTooLarge}`;

export const apisRoutes = routeGroup('apis', {
  apisList: route({
    method: 'GET', path: '/api/apis', group: 'dashboard', access: 'read', permission: 'apis', tableActions: ['GetItem', 'Query'],
    summary: "List the caller's organisation's APIs: paged, sort by name, created_at or updated_at (- for descending)",
    description: "Listing entries of the caller's organisation's APIs: the classic definition, and the OpenAPI document of OAS APIs.",
    success: 'A page of API listing entries',
    statuses: { 409: storedTooLarge },
    query: apiListQuerySchema, result: apiListSchema,
  }),
  oasCreate: route({
    method: 'POST', path: '/gw/apis/oas', group: 'gateway', access: 'write', idempotent: true,
    tableActions: ['GetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchGetItem'],
    summary: 'Create an OAS API from a document with x-gw-api-gateway or the bare extension',
    description:
      `${versions} The API's organisation is x-gw-api-gateway.info.orgId; a blank info.id gets 32 lowercase hex. Each ` +
      '(custom domain, listen path) belongs to one API across the installation.',
    success: 'API created; key is its api_id',
    statuses: {
      400: `The ${causes.handlerLimits}`,
      409: `The api_id, database id or listen path is taken, ${causes.versionNameTaken}, or ${causes.storedTooLarge}`,
      422: `info.orgId names no organisation, an event handler names a webhook the organisation does not have, or ${causes.badBase}`,
    },
    query: versionQuerySchema, body: oasWriteBodySchema, result: gatewayWriteSchema,
    doc: { body: oasWriteBody },
  }),
  oasUpdate: route({
    method: 'PUT', path: '/gw/apis/oas/{apiID}', group: 'gateway', access: 'write', etag: true,
    tableActions: ['GetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchGetItem'],
    summary: 'Replace an OAS API',
    description: `Replaces the whole definition; a body whose info.id is not the path's api_id is 400 (a rule between path and body). ${versions}`,
    success: 'API replaced; key is its api_id',
    statuses: {
      400: `The body names another api_id than the path, or ${causes.handlerLimits}`,
      404: 'No such API',
      409: `The listen path is taken by another API, ${causes.versionNameTaken}, or ${causes.storedTooLarge}`,
      422: `The API moves to an info.orgId that names no organisation, an event handler names a webhook the organisation does not have, or ${causes.badBase}`,
    },
    query: versionQuerySchema, body: oasWriteBodySchema, result: gatewayWriteSchema,
    doc: { body: oasWriteBody },
  }),
  oasGet: route({
    method: 'GET', path: '/gw/apis/oas/{apiID}', group: 'gateway', access: 'read', tableActions: ['Query'],
    summary: 'Get an OAS API; mode=public leaves out x-gw-api-gateway',
    description: 'Classic APIs are 404 here (GET /gw/apis/{apiID} reads every API).',
    success: 'The OpenAPI document with x-gw-api-gateway (without it for mode=public)',
    successHeaders: ['ETag'],
    statuses: { 404: 'No such OAS API', 409: storedTooLarge },
    query: oasGetQuerySchema, result: oasDocumentSchema,
  }),
  classicCreate: route({
    method: 'POST', path: '/gw/apis', group: 'gateway', access: 'write', idempotent: true,
    tableActions: ['GetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchGetItem'],
    summary: 'Create a classic API',
    description: 'A blank api_id gets 32 lowercase hex. Each (custom domain, listen path) belongs to one API across the installation.',
    success: 'API created; key is its api_id',
    statuses: {
      400: `The ${causes.handlerLimits}`,
      409: `The api_id, database id or listen path is taken, or ${causes.storedTooLarge}`,
      422: 'org_id names no organisation, or an event handler names a webhook the organisation does not have',
    },
    body: classicApiSchema, result: gatewayWriteSchema,
  }),
  classicGet: route({
    method: 'GET', path: '/gw/apis/{apiID}', group: 'gateway', access: 'read', tableActions: ['Query'],
    summary: 'Get any API in classic form; OAS APIs converted, with is_oas true',
    description: 'OAS APIs are converted by the same mapping that converts classic ones back.',
    success: 'The classic definition',
    successHeaders: ['ETag', 'X-Gw-Base-Api-Id'],
    statuses: { 404: 'No such API', 409: storedTooLarge },
    result: classicApiSchema,
  }),
  apisDelete: route({
    method: 'DELETE', path: '/gw/apis/{apiID}', group: 'gateway', access: 'write', etag: true,
    tableActions: ['BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    summary: "Delete an API (its listen path is free again); a version leaves its base's version list in the same transaction",
    description: 'Deletes the API, its stored parts and its OAuth clients (at most 50) in one transaction.',
    success: 'API deleted; key is its api_id',
    statuses: {
      404: 'No such API',
      409: `A base that still has versions, an API with more than 50 OAuth clients, or ${causes.storedTooLarge}`,
    },
    result: gatewayWriteSchema,
  }),
}) satisfies Record<string, RouteDef>;
