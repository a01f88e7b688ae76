/** OAuth clients of an API. Part of the route table (shared/routes.ts). */
import { route } from '../route-builders';
import type { RouteDef } from '../route-def';
import { gatewayWriteSchema } from '../schemas/common';
import { oauthClientListSchema, oauthClientSchema, oauthCreateSchema, oauthCreatedSchema, oauthUpdateSchema } from '../schemas/oauth';

export const oauthRoutes = {
  oauthCreate: route({
    method: 'POST', path: '/gw/oauth/clients/create', group: 'gateway', entry: 'functions/oauth/create.ts', access: 'write', idempotent: true,
    tableActions: ['GetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'], secrets: ['secret'],
    summary:
      'Create an OAuth client: answers the client with its generated secret, shown this once (stored hashed); ' +
      '422 unknown API or policy, 400 a policy that does not grant the API, 409 a taken client_id',
    body: oauthCreateSchema, result: oauthCreatedSchema,
  }),
  oauthUpdate: route({
    method: 'PUT', path: '/gw/oauth/clients/{apiID}/{clientID}', group: 'gateway', entry: 'functions/oauth/update.ts', access: 'write', etag: true,
    tableActions: ['GetItem', 'PutItem'],
    summary:
      'Update an OAuth client: replaces redirect_uri, policy_id, meta_data and description (omitted ones are emptied), ' +
      'keeps id and secret; 404 unknown API or client, 422 unknown policy, 400 a policy that does not grant the API',
    body: oauthUpdateSchema, result: oauthClientSchema,
  }),
  oauthList: route({
    method: 'GET', path: '/gw/oauth/clients/{apiID}', group: 'gateway', entry: 'functions/oauth/list.ts', access: 'read',
    tableActions: ['GetItem', 'Query'],
    summary: "List an API's OAuth clients, without secrets; 404 unknown API", result: oauthClientListSchema,
  }),
  oauthDelete: route({
    method: 'DELETE', path: '/gw/oauth/clients/{apiID}/{clientID}', group: 'gateway', entry: 'functions/oauth/delete.ts', access: 'write', etag: true,
    tableActions: ['GetItem', 'DeleteItem'],
    summary: 'Delete an OAuth client; 404 unknown API or client', result: gatewayWriteSchema,
  }),
} satisfies Record<string, RouteDef>;
