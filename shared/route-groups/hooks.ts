/** Webhooks of an organisation. Part of the route table (shared/routes.ts). */
import { route } from '../route-builders';
import type { RouteDef } from '../route-def';
import { okIdSchema } from '../schemas/common';
import {
  deliveryListQuerySchema,
  deliveryListSchema,
  hookInputSchema,
  hookListQuerySchema,
  hookListSchema,
  hookSchema,
  hookSecretAnswerSchema,
  pingAnswerSchema,
} from '../schemas/hooks';

export const hooksRoutes = {
  hooksCreate: route({
    method: 'POST', path: '/api/hooks', group: 'dashboard', entry: 'functions/hooks/create.ts', access: 'write', permission: 'hooks', idempotent: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], secrets: ['signing_secret'],
    summary: 'Create a webhook: method (DELETE, GET, PUT, POST, PATCH) and an absolute http(s) target_path to a public host required; header_map limited (README Choices); Meta is the new id, signing_secret its signing secret (shown this once); 409 when the organisation has 100 webhooks',
    body: hookInputSchema, result: hookSecretAnswerSchema,
  }),
  hooksList: route({
    method: 'GET', path: '/api/hooks', group: 'dashboard', entry: 'functions/hooks/list.ts', access: 'read', permission: 'hooks',
    tableActions: ['GetItem', 'Query'],
    summary: "List the caller's organisation's webhooks in creation order, paged", query: hookListQuerySchema, result: hookListSchema,
  }),
  hooksGet: route({
    method: 'GET', path: '/api/hooks/{hookID}', group: 'dashboard', entry: 'functions/hooks/get.ts', access: 'read', permission: 'hooks',
    tableActions: ['GetItem'],
    summary: 'Get a webhook; 404 when unknown or of another organisation', result: hookSchema,
  }),
  hooksUpdate: route({
    method: 'PUT', path: '/api/hooks/{hookID}', group: 'dashboard', entry: 'functions/hooks/update.ts', access: 'write', permission: 'hooks', etag: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
    summary: 'Replace a webhook: omitted members are emptied; 404 when unknown', body: hookInputSchema, result: okIdSchema,
  }),
  hooksDelete: route({
    method: 'DELETE', path: '/api/hooks/{hookID}', group: 'dashboard', entry: 'functions/hooks/delete.ts', access: 'write', permission: 'hooks', etag: true,
    tableActions: ['GetItem', 'UpdateItem', 'DeleteItem'],
    summary: 'Delete a webhook; 404 when unknown', result: okIdSchema,
  }),
  hooksSigningSecret: route({
    method: 'POST', path: '/api/hooks/{hookID}/signing-secret', group: 'dashboard', entry: 'functions/hooks/signing-secret.ts', access: 'write', permission: 'hooks', serviceKey: true,
    tableActions: ['GetItem', 'UpdateItem'],
    summary: 'Rotate a webhook\'s signing secret: answers the new one once (signing_secret); deliveries are signed with it from now on, and with the old one too for HOOK_SECRET_ROTATION_SECONDS (24 h); 404 when unknown',
    result: hookSecretAnswerSchema,
  }),
  hooksDeliveries: route({
    method: 'GET', path: '/api/hooks/{hookID}/deliveries', group: 'dashboard', entry: 'functions/hooks/deliveries.ts', access: 'read', permission: 'hooks',
    tableActions: ['GetItem', 'Query'],
    summary: 'A webhook\'s delivery log, newest first, paged: status (pending, delivered, failed), attempts, last response code, duration, next attempt, error class; entries expire after 30 days; 404 when unknown',
    query: deliveryListQuerySchema, result: deliveryListSchema,
  }),
  hooksRedeliver: route({
    method: 'POST', path: '/api/hooks/{hookID}/deliveries/{deliveryID}/redeliver', group: 'dashboard', entry: 'functions/hooks/redeliver.ts', access: 'write', permission: 'hooks', orgLimit: 'hookTest',
    tableActions: ['GetItem', 'UpdateItem'],
    summary: 'Queue one more attempt of a delivery, due now; 404 when the hook or delivery is unknown',
    result: okIdSchema,
  }),
  hooksTest: route({
    method: 'POST', path: '/api/hooks/{hookID}/test', group: 'dashboard', entry: 'functions/hooks/test.ts', access: 'write', permission: 'hooks', orgLimit: 'hookTest',
    tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
    summary: 'Send a Ping event to a webhook (through the delivery, signed and logged); Meta names its delivery_id and event_id; 404 when unknown',
    result: pingAnswerSchema,
  }),
} satisfies Record<string, RouteDef>;
