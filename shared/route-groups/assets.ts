/** Assets: the templates an OpenAPI import can start from. Part of the route table (shared/routes.ts). */
import { route } from '../route-builders';
import type { RouteDef } from '../route-def';
import { okIdPairSchema, okIdSchema } from '../schemas/common';
import { assetInputSchema, assetListQuerySchema, assetListSchema, assetSchema } from '../schemas/assets';

export const assetsRoutes = {
  assetsCreate: route({
    method: 'POST', path: '/api/assets', group: 'dashboard', entry: 'functions/assets/create.ts', access: 'write', permission: 'assets', idempotent: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    summary: 'Create a template (asset); Meta is the new _id, ID the custom id; 409 custom id taken, 422 kind other than oas-template',
    body: assetInputSchema, result: okIdPairSchema,
  }),
  assetsList: route({
    method: 'GET', path: '/api/assets', group: 'dashboard', entry: 'functions/assets/list.ts', access: 'read', permission: 'assets',
    tableActions: ['GetItem', 'Query'],
    summary: "List the caller's organisation's templates, paged", query: assetListQuerySchema, result: assetListSchema,
  }),
  assetsGet: route({
    method: 'GET', path: '/api/assets/{assetID}', group: 'dashboard', entry: 'functions/assets/get.ts', access: 'read', permission: 'assets',
    tableActions: ['GetItem'],
    summary: 'Get a template by _id or custom id', result: assetSchema,
  }),
  assetsUpdate: route({
    method: 'PUT', path: '/api/assets/{assetID}', group: 'dashboard', entry: 'functions/assets/update.ts', access: 'write', permission: 'assets', etag: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    summary: 'Replace a template (by _id or custom id); 409 custom id taken, 412 stale If-Match, 422 kind',
    body: assetInputSchema, result: okIdPairSchema,
  }),
  assetsDelete: route({
    method: 'DELETE', path: '/api/assets/{assetID}', group: 'dashboard', entry: 'functions/assets/delete.ts', access: 'write', permission: 'assets', etag: true,
    tableActions: ['GetItem', 'UpdateItem', 'DeleteItem'],
    summary: 'Delete a template (by _id or custom id)', result: okIdSchema,
  }),
} satisfies Record<string, RouteDef>;
