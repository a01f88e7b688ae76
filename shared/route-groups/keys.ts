/** Gateway keys and the organisation-wide session. Part of the route table (shared/routes.ts). */
import * as z from 'zod';
import { route } from '../route-builders';
import type { RouteDef } from '../route-def';
import { gatewayWriteSchema, idSchema, keyWriteSchema, usernameSchema } from '../schemas/common';
import { keyAdminSchema, keyDashboardSchema, keyGatewaySchema, keyGetQuerySchema, keyResultSchema, keySessionSchema, keyUpdateQuerySchema, orgKeyQuerySchema } from '../schemas/keys';

export const keysRoutes = {
  keysCreate: route({
    method: 'POST', path: '/gw/keys/create', group: 'gateway', entry: 'functions/keys/create.ts', access: 'write', idempotent: true,
    tableActions: ['GetItem', 'BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'], secrets: ['key'],
    summary: 'Create a key; key (shown once) and key_hash in the result; 400 without rights or policies, 422 unknown organisation, API or policy, 409 a basic-auth user name taken in the organisation',
    body: keyGatewaySchema, result: keyWriteSchema,
  }),
  keysGet: route({
    method: 'GET', path: '/gw/keys/{keyID}', group: 'gateway', entry: 'functions/keys/get.ts', access: 'read',
    tableActions: ['BatchGetItem', 'Query'],
    summary: 'Get a key as its policies make it (the session the check enforces); hashed=true or 1 when the path holds the hash (false, 0 or absent: the key; else 400); quota_remaining is live, counted against the effective quota', query: keyGetQuerySchema, result: keySessionSchema,
  }),
  keysDelete: route({
    method: 'DELETE', path: '/gw/keys/{keyID}', group: 'gateway', entry: 'functions/keys/delete.ts', access: 'write',
    tableActions: ['Query', 'DeleteItem'],
    summary: 'Delete a key with its live quota; hashed=true or 1 when the path holds the hash (false, 0 or absent: the key; else 400)', query: keyGetQuerySchema, result: keyWriteSchema,
  }),
  keysDashboardUpdate: route({
    method: 'PUT', path: '/api/apis/{apiID}/keys/{keyID}', group: 'dashboard', entry: 'functions/keys/dashboard-update.ts', access: 'write', permission: 'keys',
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    etag: true, summary: 'Replace a key of the caller\'s organisation that grants the API; resets the live quota unless suppress_reset=1; 422 an API or policy that is not the organisation\'s',
    params: z.object({ apiID: idSchema, keyID: usernameSchema }),
    query: keyUpdateQuerySchema, body: keyDashboardSchema, result: keyResultSchema,
  }),
  orgKeysAdminCreate: route({
    method: 'POST', path: '/admin/org/keys', group: 'admin', entry: 'functions/keys/org-keys-admin-create.ts', access: 'write', idempotent: true,
    tableActions: ['GetItem', 'BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'], secrets: ['key_id'],
    summary: 'Create a key for the organisation in org_id; 422 unknown organisation, API or policy', body: keyAdminSchema, result: keyResultSchema,
  }),
  orgKeysUpdate: route({
    method: 'PUT', path: '/gw/org/keys/{orgID}', group: 'gateway', entry: 'functions/keys/org-keys-update.ts', access: 'write',
    tableActions: ['ConditionCheckItem', 'PutItem', 'UpdateItem'],
    summary: "Set an organisation's session: its quota caps all its keys; reset_quota=1 restarts it; 404 unknown organisation",
    query: orgKeyQuerySchema, body: keyGatewaySchema, result: gatewayWriteSchema,
  }),
} satisfies Record<string, RouteDef>;
