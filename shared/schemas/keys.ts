import * as z from 'zod';
import { idSchema, longText, looseObject, queryBool, shortText, usernameSchema } from './common';
import { LIMITS } from '../limits';
import { checkAllowedUrls } from './allowed-urls';
import { smoothingSchema } from './smoothing';
import { storableBody, storableNumber, storedLooseObject, storedObject, storedRecord, storedValue } from './storable';

const int = /* @__PURE__ */ (() => z.number().int())();
/** Every number of a session is stored as a DynamoDB number (contract §11). */
const num = storableNumber;
const list = <T extends z.ZodType>(item: T) => z.array(item).max(LIMITS.arrayItems);

/** Per-API limits inside an access entry (per_api policies write them). */
export const apiLimitSchema = /* @__PURE__ */ (() =>
  storedLooseObject({
    rate: num.optional(),
    per: num.optional(),
    quota_max: int.optional(),
    quota_remaining: int.optional(),
    quota_renewal_rate: int.optional(),
    quota_renews: int.optional(),
    throttle_interval: num.optional(),
    throttle_retry_limit: int.optional(),
    max_query_depth: int.optional(),
    smoothing: smoothingSchema.optional(),
  }))();
export type ApiLimit = z.infer<typeof apiLimitSchema>;

/** One access entry (contract §6); the gateway's further members (allowed_urls, limit, ...) are kept. */
export const accessDefinitionSchema = /* @__PURE__ */ (() =>
  storedLooseObject({
    api_id: idSchema,
    api_name: shortText.optional(),
    versions: list(shortText).nullable().optional(),
    allowed_urls: list(storedLooseObject({ url: longText, methods: list(shortText).nullable().optional() }))
      .nullable()
      .optional(),
    limit: apiLimitSchema.nullable().optional(),
  }))();
export type AccessDefinition = z.infer<typeof accessDefinitionSchema>;

/**
 * Map keyed by API id; an entry naming another API than its key would grant the wrong API. Its
 * path rules together are bounded (shared/schemas/allowed-urls.ts), on keys and policies alike.
 */
export const accessRightsSchema = /* @__PURE__ */ (() =>
  z.record(idSchema, accessDefinitionSchema).superRefine(async (rights, ctx) => {
    const ids = Object.keys(rights);
    if (ids.length > LIMITS.arrayItems) ctx.addIssue({ code: 'custom', message: `at most ${LIMITS.arrayItems} entries` });
    for (const id of ids) {
      if (rights[id]?.api_id !== id) {
        ctx.addIssue({ code: 'custom', path: [id, 'api_id'], message: 'must equal the API id it is keyed by' });
      }
    }
    await checkAllowedUrls(rights, ctx);
  }))();
export type AccessRights = z.infer<typeof accessRightsSchema>;

/** Policy ids as the gateway sends them: the deprecated single id may be blank. */
const policyRef = /* @__PURE__ */ (() => z.union([idSchema, z.literal('')]))();

const sessionFields = /* @__PURE__ */ (() => ({
  access_rights: accessRightsSchema.nullable().optional(),
  alias: shortText.optional(),
  allowance: num.optional(),
  apply_policies: list(idSchema).nullable().optional(),
  apply_policy_id: policyRef.optional(),
  basic_auth_data: storedLooseObject({
    hash_type: shortText.optional(),
    password: shortText.optional(),
    user: usernameSchema.or(z.literal('')).optional(),
  }).optional(),
  certificate: longText.optional(),
  data_expires: int.optional(),
  date_created: z.string().max(64).optional(),
  enable_detailed_recording: z.boolean().optional(),
  /** Unix seconds; 0 or below never expires (the gateway documents -1). */
  expires: int.optional(),
  hmac_enabled: z.boolean().optional(),
  hmac_string: longText.optional(),
  id_extractor_deadline: int.optional(),
  is_inactive: z.boolean().optional(),
  jwt_data: storedLooseObject({ secret: longText.optional() }).optional(),
  key_hash: z.string().max(128).optional(),
  last_check: int.optional(),
  last_updated: z.string().max(64).optional(),
  max_query_depth: int.optional(),
  meta_data: storedObject.nullable().optional(),
  monitor: storedLooseObject({ trigger_limits: list(num).nullable().optional() }).optional(),
  oauth_client_id: shortText.optional(),
  oauth_keys: storedRecord(longText).nullable().optional(),
  org_id: z.union([idSchema, z.literal('')]).optional(),
  per: num.optional(),
  quota_max: int.optional(),
  quota_remaining: int.optional(),
  quota_renewal_rate: int.optional(),
  quota_renews: int.optional(),
  rate: num.optional(),
  session_lifetime: int.optional(),
  smoothing: smoothingSchema.optional(),
  tags: list(shortText).nullable().optional(),
  throttle_interval: num.optional(),
  throttle_retry_limit: int.optional(),
}))();

const gatewayOnlyFields = /* @__PURE__ */ (() => ({
  enable_detail_recording: z.boolean().optional(),
  enable_http_signature_validation: z.boolean().optional(),
  rsa_certificate_id: shortText.optional(),
}))();

/**
 * The stored session object (all forms' fields): what repositories hold and reads return,
 * minus secrets the response mappers remove (basic-auth passwords).
 */
export const keySessionSchema = /* @__PURE__ */ (() => storedLooseObject({ ...sessionFields, ...gatewayOnlyFields, key_id: idSchema.optional() }))();
export type KeySession = z.infer<typeof keySessionSchema>;

/** Fields the server owns on every write: computed (`key_hash`) or stamped (`date_created`, `last_updated`). */
const SERVER_OWNED = ['key_hash', 'date_created', 'last_updated'] as const;

/** Omit that keeps the named members of a type with an index signature (plain Omit loses them). */
type Without<T, K extends string> = { [P in keyof T as P extends K ? never : P]: T[P] };

function without<T extends Record<string, unknown>, K extends string>(names: readonly K[]) {
  return (value: T): Without<T, K> => {
    const copy: Record<string, unknown> = { ...value };
    for (const n of names) delete copy[n];
    return copy as Without<T, K>;
  };
}

/**
 * Gateway form (POST /gw/keys/create, PUT /gw/org/keys/{orgID}): server-owned fields sent by a
 * client (for example a GET result sent back) are dropped, not rejected.
 */
export const keyGatewaySchema = /* @__PURE__ */ (() =>
  storableBody(storedLooseObject({ ...sessionFields, ...gatewayOnlyFields }).transform(without([...SERVER_OWNED, 'key_id']))))();

const dashboardFields = /* @__PURE__ */ (() => ({ ...sessionFields, key_id: idSchema.optional(), meta_data: storedValue.optional() }))();

/**
 * Dashboard form (PUT /api/apis/{apiID}/keys/{keyRef}): the body replaces the session but
 * `org_id`, `date_created` and `key_hash` are kept from the stored key (contract §6), and the
 * key id comes from the path.
 */
export const keyDashboardSchema = /* @__PURE__ */ (() =>
  storableBody(storedLooseObject(dashboardFields).transform(without([...SERVER_OWNED, 'org_id', 'key_id']))))();

/** Admin form (POST /admin/org/keys): the dashboard form, where `org_id` names the key's organisation. */
export const keyAdminSchema = /* @__PURE__ */ (() =>
  storableBody(storedLooseObject({ ...dashboardFields, org_id: idSchema }).transform(without([...SERVER_OWNED, 'key_id']))))();

/** The key result of PUT /api/apis/{apiID}/keys/{keyRef} and POST /admin/org/keys. */
export const keyResultSchema = /* @__PURE__ */ (() =>
  z.object({
    api_model: looseObject,
    key_id: z.string(),
    key_hash: z.string(),
    data: keySessionSchema,
  }))();

/**
 * Dashboard create (POST /api/keys): the dashboard form, where an `org_id` may only repeat the
 * caller's organisation (the service answers 400 for another).
 */
export const keyDashboardCreateSchema = /* @__PURE__ */ (() =>
  storableBody(
    storedLooseObject({ ...dashboardFields, org_id: z.union([idSchema, z.literal('')]).optional() }).transform(without([...SERVER_OWNED, 'key_id'])),
  ))();

/** A key as the dashboard's key routes answer it: by its hash, never the clear key. */
export const keyByHashResultSchema = /* @__PURE__ */ (() => z.object({ api_model: looseObject, key_hash: z.string(), data: keySessionSchema }))();

/** One row of GET /api/keys: what a key list shows, by hash. */
const keyListRowSchema = /* @__PURE__ */ (() =>
  z.object({
    key_hash: z.string(),
    alias: z.string(),
    apis: z.array(z.string()),
    apply_policies: z.array(z.string()),
    expires: z.number(),
    is_inactive: z.boolean(),
    quota_max: z.number(),
    quota_remaining: z.number(),
    quota_renews: z.number(),
    date_created: z.string(),
    last_updated: z.string(),
  }))();
export type KeyListRow = z.infer<typeof keyListRowSchema>;
export const keyListSchema = /* @__PURE__ */ (() =>
  z.object({ keys: z.array(keyListRowSchema), pages: z.number().int(), next_cursor: z.string().optional() }))();

/** Query of PUT /api/keys/{keyHash}: reset_quota=1 resets the live quota (kept otherwise). */
export const keyReplaceQuerySchema = /* @__PURE__ */ (() => z.object({ reset_quota: queryBool.optional() }))();

/** Query of PUT /api/apis/{apiID}/keys/{keyRef} (contract §6). */
export const keyUpdateQuerySchema = /* @__PURE__ */ (() =>
  z.object({
    suppress_reset: queryBool.optional(),
    auto_guess: queryBool.optional(),
    /**
     * Any non-empty value means the path holds the hash (contract §6), except `0` and `false`
     * (any case), which say the opposite and so mean the key itself (docs/developing/choices.md).
     */
    hashed: z
      .string()
      .max(16)
      .transform((v) => v !== '' && v !== '0' && v.toLowerCase() !== 'false')
      .optional(),
    username: queryBool.optional(),
  }))();

/** Query of GET and DELETE /gw/keys/{keyRef}: hashed=true|1 the path holds the hash, false|0 the key; anything else is 400. */
export const keyGetQuerySchema = /* @__PURE__ */ (() =>
  z.object({
    hashed: queryBool.optional(),
  }))();

/** Query of PUT /gw/org/keys/{orgID}. */
export const orgKeyQuerySchema = /* @__PURE__ */ (() =>
  z.object({
    reset_quota: queryBool.optional(),
  }))();

/** Body of POST /gw/sessions/check (contract §10). */
export const sessionCheckSchema = /* @__PURE__ */ (() =>
  z.object({
    key: idSchema,
    api_id: idSchema,
    path: z.string().max(LIMITS.longString).optional(),
    method: z.string().max(16).optional(),
  }))();

/** The 200 answer of POST /gw/sessions/check; refusals are 403 and 429 in the gateway error envelope (contract §10). */
export const sessionCheckResultSchema = /* @__PURE__ */ (() =>
  z.object({
    allowed: z.literal(true),
    quota_remaining: z.number().int(),
    quota_renews: z.number().int(),
  }))();
