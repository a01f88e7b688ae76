/** Webhooks of an organisation. Part of the route table (shared/routes.ts). */
import { route } from '../route-builders';
import type { RouteDef } from '../route-def';
import { okIdSchema } from '../schemas/common';
import { hookInputSchema, hookListQuerySchema, hookListSchema, hookSchema } from '../schemas/hooks';

export const hooksRoutes = {
  hooksCreate: route({
    method: 'POST', path: '/api/hooks', group: 'dashboard', entry: 'functions/hooks/create.ts', access: 'write', idempotent: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    summary: 'Create a webhook: method (DELETE, GET, PUT, POST, PATCH) and an absolute http(s) target_path to a public host required; header_map limited (README Choices); Meta is the new id',
    body: hookInputSchema, result: okIdSchema,
  }),
  hooksList: route({
    method: 'GET', path: '/api/hooks', group: 'dashboard', entry: 'functions/hooks/list.ts', access: 'read',
    tableActions: ['GetItem', 'Query'],
    summary: "List the caller's organisation's webhooks in creation order, paged", query: hookListQuerySchema, result: hookListSchema,
  }),
  hooksGet: route({
    method: 'GET', path: '/api/hooks/{hookID}', group: 'dashboard', entry: 'functions/hooks/get.ts', access: 'read',
    tableActions: ['GetItem'],
    summary: 'Get a webhook; 404 when unknown or of another organisation', result: hookSchema,
  }),
  hooksUpdate: route({
    method: 'PUT', path: '/api/hooks/{hookID}', group: 'dashboard', entry: 'functions/hooks/update.ts', access: 'write', etag: true,
    tableActions: ['GetItem', 'PutItem'],
    summary: 'Replace a webhook: omitted members are emptied; 404 when unknown', body: hookInputSchema, result: okIdSchema,
  }),
  hooksDelete: route({
    method: 'DELETE', path: '/api/hooks/{hookID}', group: 'dashboard', entry: 'functions/hooks/delete.ts', access: 'write', etag: true,
    tableActions: ['GetItem', 'UpdateItem', 'DeleteItem'],
    summary: 'Delete a webhook; 404 when unknown', result: okIdSchema,
  }),
} satisfies Record<string, RouteDef>;
