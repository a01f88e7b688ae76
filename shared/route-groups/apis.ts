/** API definitions: classic and OAS writes and reads, versions, listing and deletion. Part of the route table (shared/routes.ts). */
import { route, routeGroup } from '../route-builders';
import { SHARED_CAUSES as causes, type RouteDef } from '../route-def';
import { gatewayWriteSchema } from '../schemas/common';
import { classicApiSchema } from '../schemas/api-classic';
import { oasDocumentSchema, oasWriteBodySchema } from '../schemas/api-oas';
import {
  apiChangedSchema,
  apiCreatedSchema,
  apiDefinitionBodySchema,
  apiListingEntrySchema,
  apiListQuerySchema,
  apiListSchema,
  oasGetQuerySchema,
} from '../schemas/apis';
import { versionQuerySchema } from '../schemas/import';

const versions =
  'With base_api_id the API becomes a version of that base (an OAS API of the same organisation; new_version_name is then required), ' +
  'both written in one transaction.';
/** The body's JSON Schema: a whole document or the bare extension (shared/openapi/components.ts). */
const oasWriteBody = { $ref: '#/components/schemas/OasWriteBody' };
const storedTooLarge = `A stored definition is too large to read: ${causes.storedTooLarge}`;

/** The rules every dashboard write of a definition adds to the gateway's (contract §2). */
const ownOrg =
  "The API is the caller's organisation's: an org_id (classic) or x-gw-api-gateway.info.orgId (OAS) must be absent or the caller's (400); " +
  "every policy and version API the definition names, and base_api_id, must be the caller's organisation's (422 as for one that does not exist).";
const dashPath = "The path holds the api_id or the 24-hex database id; another organisation's API is 404 like an unknown one.";
const dashWrite422 = `A policy, version API or webhook the definition names is not the caller organisation's, or ${causes.badBase}`;
const dashWriteActions = ['GetItem', 'BatchGetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'] as const;

export const apisList = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/apis',
    group: 'dashboard',
    access: 'read',
    permission: 'apis',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['access_key', 'api', 'org'],
    summary: "List the caller's organisation's APIs: paged, sort by name, created_at or updated_at (- for descending)",
    description: "Listing entries of the caller's organisation's APIs: the classic definition, and the OpenAPI document of OAS APIs.",
    success: 'A page of API listing entries',
    statuses: { 409: storedTooLarge },
    query: apiListQuerySchema,
    result: apiListSchema,
  }))();

export const oasCreate = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/gw/apis/oas',
    group: 'gateway',
    access: 'write',
    idempotent: true,
    tableActions: ['GetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchGetItem'],
    tableEntities: [
      'api',
      'api_db_id',
      'domain_grant',
      'hook',
      'idempotency',
      'listen_path',
      'org',
      'routed_claim',
      'host_claims',
      'routing_version',
      'shared_path',
      'shared_path_head',
    ],
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
    query: versionQuerySchema,
    body: oasWriteBodySchema,
    result: gatewayWriteSchema,
    doc: { body: oasWriteBody },
  }))();

export const oasUpdate = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/gw/apis/oas/{apiID}',
    group: 'gateway',
    access: 'write',
    etag: true,
    tableActions: ['GetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchGetItem'],
    tableEntities: [
      'api',
      'api_db_id',
      'domain_grant',
      'hook',
      'listen_path',
      'org',
      'routed_claim',
      'host_claims',
      'routing_version',
      'shared_path',
      'shared_path_head',
    ],
    summary: 'Replace an OAS API',
    description: `Replaces the whole definition; a body whose info.id is not the path's api_id is 400 (a rule between path and body). ${versions}`,
    success: 'API replaced; key is its api_id',
    statuses: {
      400: `The body names another api_id than the path, or ${causes.handlerLimits}`,
      404: 'No such API',
      409: `The listen path is taken by another API, ${causes.versionNameTaken}, or ${causes.storedTooLarge}`,
      422: `The API moves to an info.orgId that names no organisation, an event handler names a webhook the organisation does not have, or ${causes.badBase}`,
    },
    query: versionQuerySchema,
    body: oasWriteBodySchema,
    result: gatewayWriteSchema,
    doc: { body: oasWriteBody },
  }))();

export const oasGet = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/gw/apis/oas/{apiID}',
    group: 'gateway',
    access: 'read',
    tableActions: ['Query'],
    tableEntities: ['api'],
    summary: 'Get an OAS API; mode=public leaves out x-gw-api-gateway',
    description: 'Classic APIs are 404 here (GET /gw/apis/{apiID} reads every API).',
    success: 'The OpenAPI document with x-gw-api-gateway (without it for mode=public)',
    successHeaders: ['ETag'],
    statuses: { 404: 'No such OAS API', 409: storedTooLarge },
    query: oasGetQuerySchema,
    result: oasDocumentSchema,
  }))();

export const classicCreate = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/gw/apis',
    group: 'gateway',
    access: 'write',
    idempotent: true,
    tableActions: ['GetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchGetItem', 'Query'],
    tableEntities: [
      'api',
      'api_db_id',
      'domain_grant',
      'hook',
      'idempotency',
      'listen_path',
      'org',
      'routed_claim',
      'host_claims',
      'routing_version',
      'shared_path',
      'shared_path_head',
    ],
    summary: 'Create a classic API',
    description: 'A blank api_id gets 32 lowercase hex. Each (custom domain, listen path) belongs to one API across the installation.',
    success: 'API created; key is its api_id',
    statuses: {
      400: `The ${causes.handlerLimits}`,
      409: `The api_id, database id or listen path is taken, or ${causes.storedTooLarge}`,
      422: 'org_id names no organisation, or an event handler names a webhook the organisation does not have',
    },
    body: classicApiSchema,
    result: gatewayWriteSchema,
  }))();

export const classicGet = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/gw/apis/{apiID}',
    group: 'gateway',
    access: 'read',
    tableActions: ['Query'],
    tableEntities: ['api'],
    summary: 'Get any API in classic form; OAS APIs converted, with is_oas true',
    description: 'OAS APIs are converted by the same mapping that converts classic ones back.',
    success: 'The classic definition',
    successHeaders: ['ETag', 'X-Gw-Base-Api-Id'],
    statuses: { 404: 'No such API', 409: storedTooLarge },
    result: classicApiSchema,
  }))();

export const apisDelete = /* @__PURE__ */ (() =>
  route({
    method: 'DELETE',
    path: '/gw/apis/{apiID}',
    group: 'gateway',
    access: 'write',
    etag: true,
    tableActions: ['BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['api', 'api_db_id', 'deletion', 'listen_path', 'oauth_client', 'org', 'routed_claim', 'host_claims', 'routing_version', 'shared_path'],
    summary: "Delete an API (its listen path is free again); a version leaves its base's version list in the same transaction",
    description: 'Deletes the API, its stored parts and its OAuth clients (at most 50) in one transaction.',
    success: 'API deleted; key is its api_id',
    statuses: {
      404: 'No such API',
      409: `A base that still has versions, an API with more than 35 OAuth clients, or ${causes.storedTooLarge}`,
    },
    result: gatewayWriteSchema,
  }))();

export const apisGet = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/apis/{apiID}',
    group: 'dashboard',
    access: 'read',
    permission: 'apis',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['access_key', 'api', 'api_db_id'],
    summary: "Get an API of the caller's organisation as its listing entry (api_definition, and oas for OAS APIs)",
    description: dashPath,
    success: 'The API listing entry',
    successHeaders: ['ETag'],
    statuses: { 404: "No such API in the caller's organisation", 409: storedTooLarge },
    result: apiListingEntrySchema,
  }))();

export const apisCreate = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/api/apis',
    group: 'dashboard',
    access: 'write',
    permission: 'apis',
    idempotent: true,
    tableActions: ['GetItem', 'BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query'],
    tableEntities: [
      'access_key',
      'api',
      'api_db_id',
      'domain_grant',
      'idempotency',
      'listen_path',
      'org',
      'org_limit',
      'policy',
      'routed_claim',
      'host_claims',
      'routing_version',
      'shared_path',
      'shared_path_head',
    ],
    summary: 'Create a classic API in the caller\'s organisation from {"api_definition": {...}}',
    description: `The rules of POST /gw/apis. ${ownOrg}`,
    success: 'API created; Meta is its database id, ID its api_id',
    statuses: {
      400: `org_id names another organisation, or the ${causes.handlerLimits}`,
      409: `The api_id, database id or listen path is taken, or ${causes.storedTooLarge}`,
      422: "A policy or version API the definition names, or a webhook an event handler names, is not the caller organisation's",
    },
    body: apiDefinitionBodySchema,
    result: apiCreatedSchema,
  }))();

export const apisUpdate = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/api/apis/{apiID}',
    group: 'dashboard',
    access: 'write',
    permission: 'apis',
    etag: true,
    tableActions: dashWriteActions,
    tableEntities: [
      'access_key',
      'api',
      'api_db_id',
      'domain_grant',
      'listen_path',
      'org_limit',
      'policy',
      'routed_claim',
      'host_claims',
      'routing_version',
      'shared_path',
      'shared_path_head',
    ],
    summary: 'Replace an API of the caller\'s organisation with a classic definition ({"api_definition": {...}})',
    description:
      `${dashPath} ${ownOrg} A body naming another api_id is 400. An OAS API stays OAS: the classic members replace what they map to ` +
      'in its x-gw-api-gateway; the rest of its document and its linked versions stay.',
    success: 'API updated',
    successHeaders: ['ETag'],
    statuses: {
      400: `The body names another api_id or organisation, or the ${causes.handlerLimits}`,
      404: "No such API in the caller's organisation",
      409: `The listen path is taken by another API, or ${causes.storedTooLarge}`,
      422: "A policy or version API the definition names, or a webhook an event handler names, is not the caller organisation's",
    },
    body: apiDefinitionBodySchema,
    result: apiChangedSchema,
  }))();

export const apisDashboardDelete = /* @__PURE__ */ (() =>
  route({
    method: 'DELETE',
    path: '/api/apis/{apiID}',
    group: 'dashboard',
    access: 'write',
    permission: 'apis',
    etag: true,
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: [
      'access_key',
      'api',
      'api_db_id',
      'deletion',
      'listen_path',
      'oauth_client',
      'org',
      'org_limit',
      'routed_claim',
      'host_claims',
      'routing_version',
      'shared_path',
    ],
    summary: "Delete an API of the caller's organisation, as DELETE /gw/apis/{apiID} does",
    description: `${dashPath} Deletes the API, its stored parts and its OAuth clients (at most 50) in one transaction; a version leaves its base's list.`,
    success: 'API deleted',
    statuses: {
      404: "No such API in the caller's organisation",
      409: `A base that still has versions, an API with more than 35 OAuth clients, or ${causes.storedTooLarge}`,
    },
    result: apiChangedSchema,
  }))();

export const oasDashboardCreate = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/api/apis/oas',
    group: 'dashboard',
    access: 'write',
    permission: 'apis',
    idempotent: true,
    tableActions: dashWriteActions,
    tableEntities: [
      'access_key',
      'api',
      'api_db_id',
      'domain_grant',
      'hook',
      'idempotency',
      'listen_path',
      'org',
      'org_limit',
      'policy',
      'routed_claim',
      'host_claims',
      'routing_version',
      'shared_path',
      'shared_path_head',
    ],
    summary: "Create an OAS API in the caller's organisation from a document with x-gw-api-gateway or the bare extension",
    description: `The rules of POST /gw/apis/oas. ${versions} ${ownOrg}`,
    success: 'API created; Meta is its database id, ID its api_id',
    statuses: {
      400: `info.orgId names another organisation, or the ${causes.handlerLimits}`,
      409: `The api_id, database id or listen path is taken, ${causes.versionNameTaken}, or ${causes.storedTooLarge}`,
      422: dashWrite422,
    },
    query: versionQuerySchema,
    body: oasWriteBodySchema,
    result: apiCreatedSchema,
    doc: { body: oasWriteBody },
  }))();

export const oasDashboardGet = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/apis/oas/{apiID}',
    group: 'dashboard',
    access: 'read',
    permission: 'apis',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['access_key', 'api', 'api_db_id'],
    summary: "Get an OAS API of the caller's organisation; mode=public leaves out x-gw-api-gateway",
    description: `${dashPath} Classic APIs are 404 here (GET /api/apis/{apiID} reads every API).`,
    success: 'The OpenAPI document with x-gw-api-gateway (without it for mode=public)',
    successHeaders: ['ETag'],
    statuses: { 404: "No such OAS API in the caller's organisation", 409: storedTooLarge },
    query: oasGetQuerySchema,
    result: oasDocumentSchema,
  }))();

export const oasDashboardUpdate = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/api/apis/oas/{apiID}',
    group: 'dashboard',
    access: 'write',
    permission: 'apis',
    etag: true,
    tableActions: dashWriteActions,
    tableEntities: [
      'access_key',
      'api',
      'api_db_id',
      'domain_grant',
      'listen_path',
      'org_limit',
      'policy',
      'routed_claim',
      'host_claims',
      'routing_version',
      'shared_path',
      'shared_path_head',
    ],
    summary: "Replace an OAS API of the caller's organisation",
    description: `The rules of PUT /gw/apis/oas/{apiID}. ${dashPath} ${versions} ${ownOrg}`,
    success: 'API updated',
    successHeaders: ['ETag'],
    statuses: {
      400: `The body names another api_id or organisation, or ${causes.handlerLimits}`,
      404: "No such OAS API in the caller's organisation",
      409: `The listen path is taken by another API, ${causes.versionNameTaken}, or ${causes.storedTooLarge}`,
      422: dashWrite422,
    },
    query: versionQuerySchema,
    body: oasWriteBodySchema,
    result: apiChangedSchema,
    doc: { body: oasWriteBody },
  }))();

export const apisRoutes = /* @__PURE__ */ (() =>
  routeGroup('apis', {
    apisList,
    oasCreate,
    oasUpdate,
    oasGet,
    classicCreate,
    classicGet,
    apisDelete,
    apisGet,
    apisCreate,
    apisUpdate,
    apisDashboardDelete,
    oasDashboardCreate,
    oasDashboardGet,
    oasDashboardUpdate,
  }))() satisfies Record<string, RouteDef>;
