/** Dashboard users: admin issues and changes them and their access keys; the dashboard lists them. Part of the route table (shared/routes.ts). */
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import { pageQuerySchema } from '../schemas/common';
import { meSchema, userCreateSchema, userIssuedSchema, userListSchema, userSearchQuerySchema, userUpdatedSchema, userUpdateSchema } from '../schemas/users';

export const usersCreate = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/admin/users',
    group: 'admin',
    access: 'write',
    idempotent: true,
    secrets: ['Message', 'Meta.access_key'],
    tableActions: ['GetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['access_key', 'idempotency', 'org', 'user', 'user_email'],
    summary: 'Create a dashboard user and issue its access key (shown once, in Message and Meta.access_key)',
    description:
      'The organisation must exist and the e-mail be unique in it. `active` defaults to true. The access key is answered this once ' +
      '(Message and Meta.access_key); only its hash is kept.',
    success: 'User created; Message and Meta.access_key hold its access key, ID its id',
    statuses: { 409: 'The e-mail is taken in the organisation', 422: 'The organisation does not exist' },
    body: userCreateSchema,
    result: userIssuedSchema,
  }))();

export const usersUpdate = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/admin/users/{userID}',
    group: 'admin',
    access: 'write',
    etag: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['access_key', 'user', 'user_email'],
    summary:
      "Replace a dashboard user's editable fields (email_address and active required; an omitted password or user_permissions is kept); " +
      'active false refuses its key at once in this process and everywhere within CACHE_SECONDS',
    description:
      'Replaces the editable fields: email_address and active are required; an omitted password or user_permissions keeps the stored ' +
      'one (only a body that names user_permissions changes them); other omitted members take their create defaults. The organisation, ' +
      'id, access key and stamps are kept.',
    success: 'User updated; Meta is the user',
    successHeaders: ['ETag'],
    statuses: { 404: 'No such user', 409: 'The e-mail is taken in the organisation' },
    body: userUpdateSchema,
    result: userUpdatedSchema,
  }))();

export const usersRotateAccessKey = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/admin/users/{userID}/access-key',
    group: 'admin',
    access: 'write',
    idempotent: true,
    secrets: ['Message', 'Meta.access_key'],
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['access_key', 'idempotency', 'user'],
    summary:
      "Revoke a dashboard user's access key and issue a new one (shown once, in Message and Meta.access_key); " +
      'the old key is refused at once in this process and everywhere within CACHE_SECONDS',
    description: 'The old key and the new one are swapped in one transaction, so exactly one is valid at any time.',
    success: 'New access key issued (Message and Meta.access_key), shown this once',
    successHeaders: ['ETag'],
    statuses: { 404: 'No such user' },
    result: userIssuedSchema,
  }))();

export const usersList = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/users',
    group: 'dashboard',
    access: 'read',
    permission: 'users',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['access_key', 'org'],
    summary: "List the caller's organisation's users",
    description: "Users of the caller's organisation in creation order, without access keys or passwords. Paged (contract §5).",
    success: 'A page of users',
    query: pageQuerySchema,
    result: userListSchema,
  }))();

export const usersSearch = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/users/search',
    group: 'dashboard',
    access: 'read',
    permission: 'users',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['access_key'],
    summary: 'Search users by a case-insensitive substring of the e-mail (deprecated)',
    description:
      'Deprecated: list with a filter. Matches q against the e-mail address, ignoring case. No count follows a search term: pages is the pages ' +
      'seen (this page and those before it, plus one while next_cursor is answered; exact on the last page), and a page ends early, with ' +
      'next_cursor, once the search has read 3 MB of users (contract §5).',
    success: 'A page of matching users',
    statuses: { 400: 'q is missing, empty or longer than 254 characters' },
    query: userSearchQuerySchema,
    result: userListSchema,
  }))();

export const usersMe = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/users/me',
    group: 'dashboard',
    access: 'read',
    permission: 'none',
    tableActions: ['GetItem'],
    tableEntities: ['access_key', 'user'],
    summary: 'Who am I: the caller with its effective permissions (every group with its level); any active user, whatever its permissions',
    description:
      'user_permissions lists every group with the level the user has on it (absent or {} and "IsAdmin": "admin" grant write on every group; ' +
      'an unlisted group is deny), so a console can hide the controls a user may not use.',
    success: 'The calling user',
    result: meSchema,
  }))();

export const usersRoutes = /* @__PURE__ */ (() =>
  routeGroup('users', {
    usersCreate,
    usersUpdate,
    usersRotateAccessKey,
    usersList,
    usersSearch,
    usersMe,
  }))() satisfies Record<string, RouteDef>;
