/** Gateway keys and the organisation-wide session. Part of the route table (shared/routes.ts). */
import * as z from 'zod';
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import { gatewayWriteSchema, idSchema, keyWriteSchema, okNullSchema, pageQuerySchema, usernameSchema } from '../schemas/common';
import {
  keyAdminSchema,
  keyByHashResultSchema,
  keyDashboardCreateSchema,
  keyListSchema,
  keyReplaceQuerySchema,
  keyDashboardSchema,
  keyGatewaySchema,
  keyGetQuerySchema,
  keyResultSchema,
  keySessionSchema,
  keyUpdateQuerySchema,
  orgKeyQuerySchema,
} from '../schemas/keys';
import { STORED_BODY_RULES } from '../schemas/storable';

/**
 * The rule the key writes add to their body schema (contract §6), in JSON Schema for the
 * document: at least one access_rights entry or one policy.
 */
const grantRule = {
  // No `type` in the branches: the base schema has it, and a restated bare object type would make
  // generated clients read it as an object with no members. access_rights and apply_policies may
  // be null in the base, which no count keyword refuses: `not null` does.
  anyOf: [
    { required: ['access_rights'], properties: { access_rights: { minProperties: 1, not: { type: 'null' } } } },
    { required: ['apply_policies'], properties: { apply_policies: { minItems: 1, not: { type: 'null' } } } },
    { required: ['apply_policy_id'], properties: { apply_policy_id: { minLength: 1 } } },
  ],
};
const noGrant = 'Neither an access_rights entry nor a policy (apply_policies or apply_policy_id)';
const userNameTaken = 'The basic-auth user name is taken in the organisation';
const badHashed = 'hashed is none of true, 1, false or 0';
const references = 'Every API in access_rights and every policy in apply_policies must exist';
const storable = STORED_BODY_RULES;
const byHash = "The path holds the key hash (a dashboard never needs the clear key after creation); another organisation's key is 404 like an unknown one.";
const ownReferences = "Every API in access_rights and every policy in apply_policies must be the caller organisation's (422 as for one that does not exist).";

export const keysCreate = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/gw/keys/create',
    group: 'gateway',
    access: 'write',
    idempotent: true,
    secrets: ['key'],
    tableActions: ['GetItem', 'BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['api', 'idempotency', 'key', 'key_username', 'org', 'policy'],
    summary: 'Create a key; key (shown once) and key_hash in the result',
    description:
      `The service generates the key id (<org_id><32 hex>); the clear key is answered this once, only its hash is kept. ${references}. ` +
      `Each access_rights entry's api_id equals its map key. ${storable}`,
    success: 'Key created; key is the clear key (shown this once), key_hash its hash',
    statuses: { 400: noGrant, 409: userNameTaken, 422: 'The organisation (a non-blank org_id), or an API or policy the key names, does not exist' },
    body: keyGatewaySchema,
    result: keyWriteSchema,
    doc: { bodyRule: grantRule },
  }))();

export const keysGet = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/gw/keys/{keyRef}',
    group: 'gateway',
    access: 'read',
    tableActions: ['BatchGetItem', 'Query'],
    tableEntities: ['key', 'policy'],
    summary:
      'Get a key as its policies make it (the session the check enforces); hashed=true or 1 when the path holds the hash; ' +
      'quota_remaining is live, counted against the effective quota',
    description: 'quota_remaining comes from the live counter; passwords never appear.',
    success: 'The key (session object)',
    successHeaders: ['ETag'],
    statuses: { 400: badHashed, 404: 'No such key' },
    query: keyGetQuerySchema,
    result: keySessionSchema,
  }))();

export const keysDelete = /* @__PURE__ */ (() =>
  route({
    method: 'DELETE',
    path: '/gw/keys/{keyRef}',
    group: 'gateway',
    access: 'write',
    tableActions: ['Query', 'PutItem', 'DeleteItem', 'UpdateItem'],
    tableEntities: ['deletion', 'key', 'key_username', 'org'],
    summary: 'Delete a key with its live quota; hashed=true or 1 when the path holds the hash',
    description: 'Deletes the key with its live quotas and its user-name marker.',
    success: 'Key deleted; key is the path, key_hash its hash',
    statuses: { 400: badHashed, 404: 'No such key', 409: 'The key changed while it was being deleted; try again' },
    query: keyGetQuerySchema,
    result: keyWriteSchema,
  }))();

export const apiKeysUpdate = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/api/apis/{apiID}/keys/{keyRef}',
    group: 'dashboard',
    access: 'write',
    permission: 'keys',
    etag: true,
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['access_key', 'api', 'api_db_id', 'key', 'key_username', 'org_limit', 'policy'],
    summary: "Replace a key of the caller's organisation that grants the API; resets the live quota unless suppress_reset=1",
    description:
      "The body replaces the session; org_id, date_created and key_hash are kept. The API (id or api_id) and the key must be the caller's " +
      `organisation's and the key must grant the API. APIs and policies the body names must be the organisation's. ${storable}`,
    success: 'Key updated',
    successHeaders: ['ETag'],
    statuses: {
      400: noGrant,
      404: "No such API or key in the caller's organisation, or the key does not grant the API",
      409: userNameTaken,
      422: "An API or policy the body names is not the caller organisation's",
    },
    params: z.object({ apiID: idSchema, keyRef: usernameSchema }),
    query: keyUpdateQuerySchema,
    body: keyDashboardSchema,
    result: keyResultSchema,
    doc: {
      bodyRule: grantRule,
      params: {
        keyRef: 'The key id, its hash (hashed), or a basic-auth user name (username=true)',
        hashed: 'Any non-empty value but 0 and false (any case): the path holds the key hash',
      },
    },
  }))();

export const orgKeysAdminCreate = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/admin/org/keys',
    group: 'admin',
    access: 'write',
    idempotent: true,
    secrets: ['key_id'],
    tableActions: ['GetItem', 'BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['api', 'idempotency', 'key', 'org', 'policy'],
    summary: 'Create a key for the organisation in org_id',
    description: `A key of the organisation in org_id, answered in the key result form. ${references}. ${storable}`,
    success: 'Key added; key_id is the clear key (shown this once)',
    statuses: { 400: noGrant, 409: userNameTaken, 422: 'The organisation, or an API or policy the key names, does not exist' },
    body: keyAdminSchema,
    result: keyResultSchema,
    doc: { bodyRule: grantRule },
  }))();

export const orgKeysUpdate = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/gw/org/keys/{orgID}',
    group: 'gateway',
    access: 'write',
    tableActions: ['ConditionCheckItem', 'PutItem', 'UpdateItem'],
    tableEntities: ['org'],
    summary: "Set an organisation's session: its quota caps all its keys; reset_quota=1 restarts it",
    description: `The organisation-wide session: its quota caps all the organisation's keys. ${storable}`,
    success: 'Organisation session set; key is the organisation id',
    statuses: { 404: 'No such organisation' },
    query: orgKeyQuerySchema,
    body: keyGatewaySchema,
    result: gatewayWriteSchema,
    doc: { params: { orgID: 'The organisation id' } },
  }))();

export const keysList = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/keys',
    group: 'dashboard',
    access: 'read',
    permission: 'keys',
    tableActions: ['GetItem', 'BatchGetItem', 'Query'],
    // A key's policies give its effective quota and rights (the list shows both).
    tableEntities: ['access_key', 'key', 'org', 'policy'],
    summary: "List the caller's organisation's keys by hash, newest first: alias, APIs, policies, expiry, active, live quota; never a clear key",
    description: 'apis and quota_max are what the check enforces (the key under its policies); quota_remaining and quota_renews come from the live counter.',
    success: 'A page of keys',
    query: pageQuerySchema,
    result: keyListSchema,
  }))();

export const keysDashboardCreate = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/api/keys',
    group: 'dashboard',
    access: 'write',
    permission: 'keys',
    idempotent: true,
    secrets: ['key_id'],
    tableActions: ['GetItem', 'BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['access_key', 'api', 'idempotency', 'key', 'key_username', 'org', 'org_limit', 'policy'],
    summary: "Create a key in the caller's organisation; key_id (the clear key, shown once) and key_hash in the result",
    description:
      `The service generates the key id (<org_id><32 hex>); only its hash is kept. An org_id in the body must be absent or the caller's (400). ` +
      `${ownReferences} ` +
      `Each access_rights entry's api_id equals its map key. ${storable}`,
    success: 'Key created; key_id is the clear key (shown this once), key_hash its hash',
    statuses: {
      400: `${noGrant}, or org_id names another organisation`,
      409: userNameTaken,
      422: "An API or policy the key names is not the caller organisation's",
    },
    body: keyDashboardCreateSchema,
    result: keyResultSchema,
    doc: { bodyRule: grantRule },
  }))();

export const keysDashboardGet = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/keys/{keyHash}',
    group: 'dashboard',
    access: 'read',
    permission: 'keys',
    tableActions: ['GetItem', 'BatchGetItem', 'Query'],
    tableEntities: ['access_key', 'key', 'policy'],
    summary: "Get a key of the caller's organisation by its hash, as its policies make it, with its live quota",
    description: `${byHash} data is the session the check enforces; quota_remaining and quota_renews come from the live counter; passwords never appear.`,
    success: 'The key by hash',
    successHeaders: ['ETag'],
    statuses: { 404: "No such key in the caller's organisation" },
    result: keyByHashResultSchema,
    doc: { params: { keyHash: 'The key hash' } },
  }))();

export const keysDashboardUpdate = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/api/keys/{keyHash}',
    group: 'dashboard',
    access: 'write',
    permission: 'keys',
    etag: true,
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['access_key', 'api', 'key', 'key_username', 'org_limit', 'policy'],
    summary: "Replace a key of the caller's organisation by its hash; reset_quota=1 resets the live quota (kept otherwise)",
    description: `${byHash} The body replaces the session; org_id, date_created and key_hash are kept. ${ownReferences} ${storable}`,
    success: 'Key updated',
    successHeaders: ['ETag'],
    statuses: {
      400: noGrant,
      404: "No such key in the caller's organisation",
      409: userNameTaken,
      422: "An API or policy the body names is not the caller organisation's",
    },
    query: keyReplaceQuerySchema,
    body: keyDashboardSchema,
    result: keyByHashResultSchema,
    doc: { bodyRule: grantRule, params: { keyHash: 'The key hash' } },
  }))();

export const keysDashboardDelete = /* @__PURE__ */ (() =>
  route({
    method: 'DELETE',
    path: '/api/keys/{keyHash}',
    group: 'dashboard',
    access: 'write',
    permission: 'keys',
    etag: true,
    tableActions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['access_key', 'deletion', 'key', 'org', 'org_limit'],
    summary: "Delete a key of the caller's organisation by its hash, with its live quota",
    description: `${byHash} Deletes the key with its live quotas and its user-name marker.`,
    success: 'Key deleted',
    statuses: { 404: "No such key in the caller's organisation", 409: 'The key changed while it was being deleted; try again' },
    result: okNullSchema,
    doc: { params: { keyHash: 'The key hash' } },
  }))();

export const keysRoutes = /* @__PURE__ */ (() =>
  routeGroup('keys', {
    keysCreate,
    keysGet,
    keysDelete,
    apiKeysUpdate,
    orgKeysAdminCreate,
    orgKeysUpdate,
    keysList,
    keysDashboardCreate,
    keysDashboardGet,
    keysDashboardUpdate,
    keysDashboardDelete,
  }))() satisfies Record<string, RouteDef>;
