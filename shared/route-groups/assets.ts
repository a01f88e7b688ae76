/** Assets: the templates an OpenAPI import can start from. Part of the route table (shared/routes.ts). */
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import { okIdPairSchema, okIdSchema } from '../schemas/common';
import { assetInputSchema, assetListQuerySchema, assetListSchema, assetSchema } from '../schemas/assets';

const idTaken = 'The custom id is taken in the organisation';
const badKind = 'A kind other than oas-template';

export const assetsCreate = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/api/assets',
    group: 'dashboard',
    access: 'write',
    permission: 'assets',
    idempotent: true,
    tableActions: ['GetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['access_key', 'asset', 'asset_custom_id', 'idempotency', 'org', 'org_limit'],
    summary: 'Create a template (asset); Meta is the new _id, ID the custom id',
    description:
      'data is an OpenAPI document, often partial; only its x-gw-api-gateway is checked. The custom id is unique in the organisation. ' +
      "_id, org_id and last_updated are the server's (ignored when sent).",
    success: 'Template created; Meta is its _id, ID its custom id (or the _id)',
    statuses: { 409: idTaken, 422: badKind },
    body: assetInputSchema,
    result: okIdPairSchema,
  }))();

export const assetsList = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/assets',
    group: 'dashboard',
    access: 'read',
    permission: 'assets',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['access_key', 'org'],
    summary: "List the caller's organisation's templates, paged",
    description: "Templates of the caller's organisation in creation order, paged (contract §5).",
    success: 'A page of templates',
    query: assetListQuerySchema,
    result: assetListSchema,
  }))();

export const assetsGet = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/assets/{assetID}',
    group: 'dashboard',
    access: 'read',
    permission: 'assets',
    tableActions: ['GetItem'],
    tableEntities: ['access_key', 'asset', 'asset_custom_id'],
    summary: 'Get a template by _id or custom id',
    description: 'By _id or custom id.',
    success: 'The template',
    successHeaders: ['ETag'],
    statuses: { 404: 'No such template' },
    result: assetSchema,
  }))();

export const assetsUpdate = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/api/assets/{assetID}',
    group: 'dashboard',
    access: 'write',
    permission: 'assets',
    etag: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['access_key', 'asset', 'asset_custom_id', 'org_limit'],
    summary: 'Replace a template (by _id or custom id)',
    description: 'Replaces the template; a PUT without id keeps the custom id.',
    success: 'Template replaced; Meta is its _id, ID its custom id (or the _id)',
    successHeaders: ['ETag'],
    statuses: { 404: 'No such template', 409: idTaken, 422: badKind },
    body: assetInputSchema,
    result: okIdPairSchema,
  }))();

export const assetsDelete = /* @__PURE__ */ (() =>
  route({
    method: 'DELETE',
    path: '/api/assets/{assetID}',
    group: 'dashboard',
    access: 'write',
    permission: 'assets',
    etag: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['access_key', 'asset', 'asset_custom_id', 'deletion', 'org', 'org_limit'],
    summary: 'Delete a template (by _id or custom id)',
    description: 'Removes the template and its custom id.',
    success: 'Template deleted; Meta is its _id',
    statuses: { 404: 'No such template' },
    result: okIdSchema,
  }))();

export const assetsRoutes = /* @__PURE__ */ (() =>
  routeGroup('assets', {
    assetsCreate,
    assetsList,
    assetsGet,
    assetsUpdate,
    assetsDelete,
  }))() satisfies Record<string, RouteDef>;
