/** OpenAPI import, templates (assets) and streams APIs. Part of the route table (shared/routes.ts). */
import { route } from '../route-builders';
import type { RouteDef } from '../route-def';
import { statusEnvelopeSchema } from '../schemas/common';
import { importQuerySchema } from '../schemas/import';
import { STREAMS_MEDIA_TYPE, streamsBodySchema, streamsQuerySchema } from '../schemas/streams';
import { assetInputSchema, assetListQuerySchema, assetListSchema, assetSchema } from '../schemas/assets';

export const importsRoutes = {
  oasImport: route({
    method: 'POST', path: '/api/apis/oas/import', group: 'dashboard', entry: 'functions/apis/oas-import.ts', access: 'write',
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    idempotent: true, bodyKind: 'raw', contentTypes: ['application/json', 'application/x-yaml', 'application/yaml', 'text/yaml', 'text/x-yaml'],
    summary: 'Import an OpenAPI document (spec 16), JSON, YAML or {"url"}; Meta is the new id, ID the api_id; 415 other types, 422 a templateID, base, version API or policy that is not the caller organisation\'s, 409 listen path taken',
    query: importQuerySchema, result: statusEnvelopeSchema,
    // The validator reads its JSON schemas from its own package directory at run time.
    nodeModules: ['@seriousme/openapi-schema-validator'],
  }),
  streamsPatch: route({
    method: 'PATCH', path: '/api/apis/streams/{apiId}', group: 'dashboard', entry: 'functions/apis/streams-patch.ts', access: 'write',
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'DeleteItem'],
    etag: true, contentTypes: [STREAMS_MEDIA_TYPE],
    summary: 'Patch a streams API (spec 7); 415 other media types, 400 without x-gw-api-gateway or x-gw-streaming.streams, 404 unknown API, 422 a policy that is not the caller organisation\'s, 409 listen path taken',
    query: streamsQuerySchema, body: streamsBodySchema, result: statusEnvelopeSchema,
  }),
  assetsCreate: route({
    method: 'POST', path: '/api/assets', group: 'dashboard', entry: 'functions/assets/create.ts', access: 'write', idempotent: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    summary: 'Create a template (asset); Meta is the new _id, ID the custom id; 409 custom id taken, 422 kind other than oas-template',
    body: assetInputSchema, result: statusEnvelopeSchema,
  }),
  assetsList: route({
    method: 'GET', path: '/api/assets', group: 'dashboard', entry: 'functions/assets/list.ts', access: 'read',
    tableActions: ['GetItem', 'Query'],
    summary: "List the caller's organisation's templates, paged", query: assetListQuerySchema, result: assetListSchema,
  }),
  assetsGet: route({
    method: 'GET', path: '/api/assets/{assetID}', group: 'dashboard', entry: 'functions/assets/get.ts', access: 'read',
    tableActions: ['GetItem'],
    summary: 'Get a template by _id or custom id (spec 1)', result: assetSchema,
  }),
  assetsUpdate: route({
    method: 'PUT', path: '/api/assets/{assetID}', group: 'dashboard', entry: 'functions/assets/update.ts', access: 'write', etag: true,
    tableActions: ['GetItem', 'PutItem', 'DeleteItem'],
    summary: 'Replace a template (by _id or custom id); 409 custom id taken, 412 stale If-Match, 422 kind',
    body: assetInputSchema, result: statusEnvelopeSchema,
  }),
  assetsDelete: route({
    method: 'DELETE', path: '/api/assets/{assetID}', group: 'dashboard', entry: 'functions/assets/delete.ts', access: 'write', etag: true,
    tableActions: ['GetItem', 'UpdateItem', 'DeleteItem'],
    summary: 'Delete a template (by _id or custom id)', result: statusEnvelopeSchema,
  }),

} satisfies Record<string, RouteDef>;
