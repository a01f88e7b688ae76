/** Keys, policies, organisation sessions and the data-plane check. Part of the route table (shared/routes.ts). */
import * as z from 'zod';
import { route } from '../route-builders';
import type { RouteDef } from '../route-def';
import { idSchema, usernameSchema, statusEnvelopeSchema, gatewayWriteSchema } from '../schemas/common';
import { keyAdminSchema, keyDashboardSchema, keyGatewaySchema, keyGetQuerySchema, keyResultSchema, keySessionSchema, keyUpdateQuerySchema, orgKeyQuerySchema, sessionCheckResultSchema, sessionCheckSchema } from '../schemas/keys';
import { policyImportSchema, policySchema } from '../schemas/policies';

export const keysRoutes = {
  keysCreate: route({
    method: 'POST', path: '/gw/keys/create', group: 'gateway', entry: 'functions/keys/create.ts', access: 'write', idempotent: true,
    tableActions: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    summary: 'Create a key (spec 17); key (shown once) and key_hash in the result; 400 without rights or policies, 422 unknown API or policy, 409 a basic-auth user name taken in the organisation',
    body: keyGatewaySchema, result: gatewayWriteSchema,
  }),
  keysGet: route({
    method: 'GET', path: '/gw/keys/{keyID}', group: 'gateway', entry: 'functions/keys/get.ts', access: 'read',
    tableActions: ['BatchGetItem', 'Query'],
    summary: 'Get a key (spec 18); hashed=true or 1 when the path holds the hash (false, 0 or absent: the key; else 400); quota_remaining is live', query: keyGetQuerySchema, result: keySessionSchema,
  }),
  keysDelete: route({
    method: 'DELETE', path: '/gw/keys/{keyID}', group: 'gateway', entry: 'functions/keys/delete.ts', access: 'write',
    tableActions: ['Query', 'DeleteItem'],
    summary: 'Delete a key with its live quota; hashed=true or 1 when the path holds the hash (false, 0 or absent: the key; else 400)', query: keyGetQuerySchema, result: gatewayWriteSchema,
  }),
  keysDashboardUpdate: route({
    method: 'PUT', path: '/api/apis/{apiID}/keys/{keyID}', group: 'dashboard', entry: 'functions/keys/dashboard-update.ts', access: 'write',
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'],
    etag: true, summary: 'Replace a key of the caller\'s organisation that grants the API (spec 3); resets the live quota unless suppress_reset=1; 422 an API or policy that is not the organisation\'s',
    params: z.object({ apiID: idSchema, keyID: usernameSchema }),
    query: keyUpdateQuerySchema, body: keyDashboardSchema, result: keyResultSchema,
  }),
  orgKeysAdminCreate: route({
    method: 'POST', path: '/admin/org/keys', group: 'admin', entry: 'functions/keys/admin-create.ts', access: 'write', idempotent: true,
    tableActions: ['GetItem', 'BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    summary: 'Create a key for the organisation in org_id (spec 9); 422 unknown organisation, API or policy', body: keyAdminSchema, result: keyResultSchema,
  }),
  orgKeysUpdate: route({
    method: 'PUT', path: '/gw/org/keys/{orgID}', group: 'gateway', entry: 'functions/keys/org-update.ts', access: 'write',
    tableActions: ['ConditionCheckItem', 'PutItem', 'UpdateItem'],
    summary: "Set an organisation's session (spec 14): its quota caps all its keys; reset_quota=1 restarts it; 404 unknown organisation",
    query: orgKeyQuerySchema, body: keyGatewaySchema, result: gatewayWriteSchema,
  }),
  policiesCreate: route({
    method: 'POST', path: '/gw/policies', group: 'gateway', entry: 'functions/policies/create.ts', access: 'write', idempotent: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    summary: 'Create a policy under its id (spec 20); 409 when the id is taken', body: policySchema, result: gatewayWriteSchema,
  }),
  policiesGet: route({
    method: 'GET', path: '/gw/policies/{policyID}', group: 'gateway', entry: 'functions/policies/get.ts', access: 'read',
    tableActions: ['GetItem'],
    summary: 'Get a policy', result: policySchema,
  }),
  policiesUpdate: route({
    method: 'PUT', path: '/gw/policies/{policyID}', group: 'gateway', entry: 'functions/policies/update.ts', access: 'write', etag: true,
    tableActions: ['GetItem', 'PutItem'],
    summary: 'Replace a policy; 400 when the body names another id', body: policySchema, result: gatewayWriteSchema,
  }),
  policiesDelete: route({
    method: 'DELETE', path: '/gw/policies/{policyID}', group: 'gateway', entry: 'functions/policies/delete.ts', access: 'write', etag: true,
    tableActions: ['DeleteItem'],
    summary: 'Delete a policy', result: gatewayWriteSchema,
  }),
  policiesImport: route({
    method: 'POST', path: '/admin/policies/import', group: 'admin', entry: 'functions/policies/import.ts', access: 'write',
    tableActions: ['BatchGetItem', 'PutItem'],
    summary: 'Import policies (spec 10): all validated before any is written; ids kept; Meta maps each id to true',
    body: policyImportSchema, result: statusEnvelopeSchema,
  }),
  sessionsCheck: route({
    method: 'POST', path: '/gw/sessions/check', group: 'gateway', entry: 'functions/sessions/check.ts', access: 'write',
    tableActions: ['GetItem', 'BatchGetItem', 'UpdateItem'],
    summary: 'Data-plane check (decisions §10): spends one unit of the key\'s and its organisation\'s quota; 403/429 with a reason',
    body: sessionCheckSchema, result: sessionCheckResultSchema,
  }),

} satisfies Record<string, RouteDef>;
