/** API definitions: classic and OAS writes and reads, versions, listing and deletion. Part of the route table (shared/routes.ts). */
import { route } from '../route-builders';
import type { RouteDef } from '../route-def';
import { gatewayWriteSchema } from '../schemas/common';
import { classicApiSchema } from '../schemas/api-classic';
import { oasDocumentSchema, oasWriteBodySchema } from '../schemas/api-oas';
import { apiListQuerySchema, apiListSchema, oasGetQuerySchema } from '../schemas/apis';
import { versionQuerySchema } from '../schemas/import';

export const apisRoutes = {
  apisList: route({
    method: 'GET', path: '/api/apis', group: 'dashboard', entry: 'functions/apis/list.ts', access: 'read', permission: 'apis',
    tableActions: ['GetItem', 'Query'],
    summary: "List the caller's organisation's APIs: paged, sort by name, created_at or updated_at (- for descending)",
    query: apiListQuerySchema, result: apiListSchema,
  }),
  oasCreate: route({
    method: 'POST', path: '/gw/apis/oas', group: 'gateway', entry: 'functions/apis/oas-create.ts', access: 'write',
    tableActions: ['GetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchGetItem'],
    idempotent: true, summary: 'Create an OAS API from a document with x-gw-api-gateway or the bare extension; 409 taken id or listen path, 422 an unknown organisation or an event handler naming an unknown webhook',
    query: versionQuerySchema, body: oasWriteBodySchema, result: gatewayWriteSchema,
  }),
  oasUpdate: route({
    method: 'PUT', path: '/gw/apis/oas/{apiID}', group: 'gateway', entry: 'functions/apis/oas-update.ts', access: 'write',
    tableActions: ['GetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchGetItem'],
    etag: true, summary: 'Replace an OAS API; 400 when the body names another id, 409 a listen path taken by another API, 422 a move to an unknown organisation or an event handler naming an unknown webhook',
    query: versionQuerySchema, body: oasWriteBodySchema, result: gatewayWriteSchema,
  }),
  oasGet: route({
    method: 'GET', path: '/gw/apis/oas/{apiID}', group: 'gateway', entry: 'functions/apis/oas-get.ts', access: 'read',
    tableActions: ['Query'],
    summary: 'Get an OAS API; mode=public leaves out x-gw-api-gateway', query: oasGetQuerySchema, result: oasDocumentSchema,
  }),
  classicCreate: route({
    method: 'POST', path: '/gw/apis', group: 'gateway', entry: 'functions/apis/classic-create.ts', access: 'write',
    tableActions: ['GetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchGetItem'],
    idempotent: true, summary: 'Create a classic API; 409 when api_id or the listen path is taken, 422 an unknown organisation or an event handler naming an unknown webhook', body: classicApiSchema, result: gatewayWriteSchema,
  }),
  classicGet: route({
    method: 'GET', path: '/gw/apis/{apiID}', group: 'gateway', entry: 'functions/apis/classic-get.ts', access: 'read',
    tableActions: ['Query'],
    summary: 'Get any API in classic form; OAS APIs converted, with is_oas true', result: classicApiSchema,
  }),
  apisDelete: route({
    method: 'DELETE', path: '/gw/apis/{apiID}', group: 'gateway', entry: 'functions/apis/delete.ts', access: 'write',
    tableActions: ['BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    etag: true, summary: 'Delete an API (its listen path is free again); a version leaves its base\'s version list in the same transaction; 409 for a base that still has versions', result: gatewayWriteSchema,
  }),
} satisfies Record<string, RouteDef>;
