/** Dashboard users: admin issues and changes them and their access keys; the dashboard lists them. Part of the route table (shared/routes.ts). */
import { route } from '../route-builders';
import type { RouteDef } from '../route-def';
import { pageQuerySchema } from '../schemas/common';
import { userCreateSchema, userIssuedSchema, userListSchema, userSearchQuerySchema, userUpdatedSchema, userUpdateSchema } from '../schemas/users';

export const usersRoutes = {
  usersCreate: route({
    method: 'POST', path: '/admin/users', group: 'admin', entry: 'functions/users/create.ts', access: 'write',
    tableActions: ['GetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    idempotent: true, secrets: ['Message', 'Meta.access_key'],
    summary: 'Create a dashboard user and issue its access key (shown once, in Message and Meta.access_key); 422 unknown org, 409 e-mail taken',
    body: userCreateSchema, result: userIssuedSchema,
  }),
  usersUpdate: route({
    method: 'PUT', path: '/admin/users/{userID}', group: 'admin', entry: 'functions/users/update.ts', access: 'write', etag: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    summary: "Replace a dashboard user's editable fields (email_address and active required; an omitted password is kept); active false refuses its key at once in this process and everywhere within CACHE_SECONDS; 404 unknown user, 409 e-mail taken, 412 stale If-Match",
    body: userUpdateSchema, result: userUpdatedSchema,
  }),
  usersRotateAccessKey: route({
    method: 'POST', path: '/admin/users/{userID}/access-key', group: 'admin', entry: 'functions/users/rotate-access-key.ts', access: 'write',
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    idempotent: true, secrets: ['Message', 'Meta.access_key'],
    summary: "Revoke a dashboard user's access key and issue a new one (shown once, in Message and Meta.access_key); the old key is refused at once in this process and everywhere within CACHE_SECONDS; 404 unknown user",
    result: userIssuedSchema,
  }),
  usersList: route({
    method: 'GET', path: '/api/users', group: 'dashboard', entry: 'functions/users/list.ts', access: 'read', permission: 'users',
    tableActions: ['GetItem', 'Query'],
    summary: "List the caller's organisation's users", query: pageQuerySchema, result: userListSchema,
  }),
  usersSearch: route({
    method: 'GET', path: '/api/users/search', group: 'dashboard', entry: 'functions/users/search.ts', access: 'read', permission: 'users',
    tableActions: ['GetItem', 'Query'],
    summary: 'Search users by a case-insensitive substring of the e-mail (deprecated)',
    query: userSearchQuerySchema, result: userListSchema,
  }),
} satisfies Record<string, RouteDef>;
