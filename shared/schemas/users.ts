import * as z from 'zod';
import { idSchema, looseObject, okEnvelopeWithId, pageQuerySchema, shortText } from './common';
import { userPermissionsSchema } from './permissions';

/** Body of POST /admin/users (contract §9): issues a dashboard access key. */
export const userCreateSchema = /* @__PURE__ */ (() =>
  z.object({
    org_id: idSchema,
    email_address: z.email().max(254),
    first_name: shortText.optional().default(''),
    last_name: shortText.optional().default(''),
    password: z.string().min(8).max(256).optional(),
    user_permissions: userPermissionsSchema.optional().default({}),
    active: z.boolean().optional().default(true),
    group_id: idSchema.optional(),
    password_max_days: z.number().int().min(0).max(36_500).optional(),
  }))();
export type UserCreate = z.infer<typeof userCreateSchema>;

/**
 * Body of PUT /admin/users/{userID}: replaces the user's editable fields. `email_address` and
 * `active` are required, so a replace never reactivates a user by omission; an omitted password or
 * `user_permissions` keeps the stored one (an omission never widens a user's rights: `{}` grants
 * every group, contract §9); other omitted members take their create defaults. The organisation,
 * id, access key and stamps are the server's (org_id and other members are dropped).
 */
export const userUpdateSchema = /* @__PURE__ */ (() =>
  userCreateSchema.omit({ org_id: true }).extend({
    active: z.boolean(),
    user_permissions: userPermissionsSchema.optional().meta({ description: 'Omitted: the stored permissions are kept.' }),
  }))();
export type UserUpdate = z.infer<typeof userUpdateSchema>;

/** A dashboard user as every read shows it: no access key, no password. */
export const userSchema = /* @__PURE__ */ (() =>
  z.object({
    id: z.string(),
    org_id: z.string(),
    email_address: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    user_permissions: looseObject,
    active: z.boolean(),
    api_model: looseObject,
    group_id: z.string(),
    created_at: z.string(),
    last_login_date: z.string().optional(),
    password_updated: z.string().optional(),
    password_max_days: z.number().int().optional(),
    /** The stored version, what If-Match repeats (users have no single read; contract §3). */
    version: z.number().int(),
  }))();
export type User = z.infer<typeof userSchema>;

/** Answer of PUT /admin/users/{userID}: the user; ID its id. */
export const userUpdatedSchema = /* @__PURE__ */ (() => okEnvelopeWithId(userSchema))();
/** Answer of POST /admin/users and of the access-key rotation: Message and Meta.access_key hold the new key, shown this once. */
export const userIssuedSchema = /* @__PURE__ */ (() => okEnvelopeWithId(userSchema.extend({ access_key: z.string() })))();

export const userListSchema = /* @__PURE__ */ (() =>
  z.object({ pages: z.number().int(), users: z.array(userSchema).nullable(), next_cursor: z.string().optional() }))();

export const userSearchQuerySchema = /* @__PURE__ */ (() =>
  pageQuerySchema.extend({
    q: z.string().min(1).max(254),
  }))();

/** GET /api/users/me: the caller, with its effective level on every permission group. */
export const meSchema = /* @__PURE__ */ (() =>
  z.object({
    id: z.string(),
    org_id: z.string(),
    email_address: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    user_permissions: z.record(z.string(), z.enum(['read', 'write', 'deny'])),
    active: z.boolean(),
  }))();
