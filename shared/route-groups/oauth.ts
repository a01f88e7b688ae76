/** OAuth clients of an API. Part of the route table (shared/routes.ts). */
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import { gatewayWriteSchema } from '../schemas/common';
import {
  oauthClientListSchema,
  oauthClientPageSchema,
  oauthClientSchema,
  oauthCreateSchema,
  oauthCreatedSchema,
  oauthDashboardCreateSchema,
  oauthDeletedSchema,
  oauthPageQuerySchema,
  oauthUpdateSchema,
} from '../schemas/oauth';
import { STORED_BODY_RULES } from '../schemas/storable';

const storable = STORED_BODY_RULES;
const policyLacksApi = 'The policy does not grant the API';
const ownApi = "The path holds the API's api_id or database id; another organisation's API is 404 like an unknown one.";
const ownPolicy = "policy_id must name a policy of the caller's organisation (422 as for one that does not exist) that grants the API (400).";

export const oauthCreate = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/gw/oauth/clients/create',
    group: 'gateway',
    access: 'write',
    idempotent: true,
    secrets: ['secret'],
    tableActions: ['GetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['api', 'idempotency', 'oauth_client', 'org', 'policy'],
    summary: 'Create an OAuth client: answers the client with its generated secret, shown this once (stored hashed)',
    description: `The secret is generated (64 hex), answered this once and kept as a SHA-256 hash; client_id is generated unless given. ${storable}`,
    success: 'OAuth client created, with its secret (shown this once)',
    successHeaders: ['ETag'],
    statuses: { 400: policyLacksApi, 409: 'The client_id is taken', 422: 'The API or the policy does not exist' },
    body: oauthCreateSchema,
    result: oauthCreatedSchema,
  }))();

export const oauthUpdate = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/gw/oauth/clients/{apiID}/{clientID}',
    group: 'gateway',
    access: 'write',
    etag: true,
    tableActions: ['GetItem', 'PutItem'],
    tableEntities: ['api', 'oauth_client', 'policy'],
    summary: 'Update an OAuth client: replaces redirect_uri, policy_id, meta_data and description (omitted ones are emptied), keeps id and secret',
    description:
      `api_id and client_id, when sent, must be the path's; the secret never changes (both rules between path or stored value and body). ` + storable,
    success: 'OAuth client updated (without its secret)',
    successHeaders: ['ETag'],
    statuses: {
      400: `${policyLacksApi}, the body names another API or client than the path, or another secret`,
      404: 'No such API or client',
      422: 'The policy does not exist',
    },
    body: oauthUpdateSchema,
    result: oauthClientSchema,
  }))();

export const oauthList = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/gw/oauth/clients/{apiID}',
    group: 'gateway',
    access: 'read',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['api'],
    summary: "List an API's OAuth clients, without secrets",
    description: 'One plain array, without secrets.',
    success: "The API's OAuth clients",
    statuses: { 404: 'No such API' },
    result: oauthClientListSchema,
  }))();

export const oauthDelete = /* @__PURE__ */ (() =>
  route({
    method: 'DELETE',
    path: '/gw/oauth/clients/{apiID}/{clientID}',
    group: 'gateway',
    access: 'write',
    etag: true,
    tableActions: ['GetItem', 'PutItem', 'DeleteItem'],
    tableEntities: ['api', 'deletion', 'oauth_client'],
    summary: 'Delete an OAuth client',
    description: 'Deletes one client of the API.',
    success: 'OAuth client deleted; key is its id',
    statuses: { 404: 'No such API or client' },
    result: gatewayWriteSchema,
  }))();

export const oauthDashboardList = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/apis/oauth/{apiID}',
    group: 'dashboard',
    access: 'read',
    permission: 'oauth',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['access_key', 'api', 'api_db_id'],
    summary: "List the OAuth clients of an API of the caller's organisation, without secrets: {apps, pages}",
    description: `${ownApi} Paged by number (p, page_size).`,
    success: "A page of the API's OAuth clients",
    statuses: { 404: "No such API in the caller's organisation" },
    query: oauthPageQuerySchema,
    result: oauthClientPageSchema,
  }))();

export const oauthDashboardCreate = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/api/apis/oauth/{apiID}',
    group: 'dashboard',
    access: 'write',
    permission: 'oauth',
    idempotent: true,
    secrets: ['secret'],
    tableActions: ['GetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['access_key', 'api', 'api_db_id', 'idempotency', 'oauth_client', 'org', 'org_limit', 'policy'],
    summary: "Create an OAuth client of an API of the caller's organisation: answers the client with its generated secret, shown this once",
    description:
      `${ownApi} ${ownPolicy} The secret is generated, answered this once and kept as a SHA-256 hash; client_id is generated unless given. ` + `${storable}`,
    success: 'OAuth client created, with its secret (shown this once)',
    statuses: {
      400: policyLacksApi,
      404: "No such API in the caller's organisation",
      409: 'The client_id is taken',
      422: "The policy is not the caller organisation's",
    },
    body: oauthDashboardCreateSchema,
    result: oauthCreatedSchema,
  }))();

export const oauthDashboardUpdate = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/api/apis/oauth/{apiID}/{clientID}',
    group: 'dashboard',
    access: 'write',
    permission: 'oauth',
    etag: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
    tableEntities: ['access_key', 'api', 'api_db_id', 'oauth_client', 'org_limit', 'policy'],
    summary: "Update an OAuth client of an API of the caller's organisation: replaces redirect_uri, policy_id, meta_data and description",
    description: `${ownApi} ${ownPolicy} Keeps id and secret; api_id and client_id, when sent, must be the path's. ${storable}`,
    success: 'OAuth client updated (without its secret)',
    successHeaders: ['ETag'],
    statuses: {
      400: `${policyLacksApi}, the body names another API or client than the path, or another secret`,
      404: "No such API in the caller's organisation, or no such client of it",
      422: "The policy is not the caller organisation's",
    },
    body: oauthUpdateSchema,
    result: oauthClientSchema,
  }))();

export const oauthDashboardDelete = /* @__PURE__ */ (() =>
  route({
    method: 'DELETE',
    path: '/api/apis/oauth/{apiID}/{clientID}',
    group: 'dashboard',
    access: 'write',
    permission: 'oauth',
    etag: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['access_key', 'api', 'api_db_id', 'deletion', 'oauth_client', 'org_limit'],
    summary: "Delete an OAuth client of an API of the caller's organisation",
    description: ownApi,
    success: 'OAuth client deleted',
    statuses: { 404: "No such API in the caller's organisation, or no such client of it" },
    result: oauthDeletedSchema,
  }))();

export const oauthRoutes = /* @__PURE__ */ (() =>
  routeGroup('oauth', {
    oauthCreate,
    oauthUpdate,
    oauthList,
    oauthDelete,
    oauthDashboardList,
    oauthDashboardCreate,
    oauthDashboardUpdate,
    oauthDashboardDelete,
  }))() satisfies Record<string, RouteDef>;
