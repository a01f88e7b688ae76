import * as z from 'zod';
import { idSchema, looseObject, okEnvelope, pageQuerySchema, shortText } from './common';
import { storableBody, storedObject } from './storable';
import { REDIRECT_URIS_PATTERN } from './url-patterns';

function isAbsoluteUri(value: string): boolean {
  try {
    return new URL(value).protocol.length > 1;
  } catch {
    return false;
  }
}

/** One absolute URI, or several separated by `;` as gateways accept them (app schemes included). */
const redirectUri = /* @__PURE__ */ (() =>
  z
    .string()
    .max(4096)
    .refine((v) => v.split(';').every((u) => isAbsoluteUri(u.trim())), 'must be absolute URIs, separated by ;')
    // What the OpenAPI document can say of the rule: URIs the URL parser takes.
    .meta({ pattern: REDIRECT_URIS_PATTERN }))();

const policyId = /* @__PURE__ */ (() => z.union([idSchema, z.literal('')]))();

/** The members a create sets and a replace empties when omitted. */
const replacedFields = /* @__PURE__ */ (() => ({
  policy_id: policyId.optional().default(''),
  meta_data: storedObject
    .nullable()
    .optional()
    .transform((v) => v ?? {}),
  description: shortText.optional().default(''),
}))();

/** A new client's members but its API: the gateway create names the API in the body, the dashboard's in the path. */
const clientFields = /* @__PURE__ */ (() => ({ redirect_uri: redirectUri, client_id: idSchema.optional(), ...replacedFields }))();

/**
 * Body of POST /gw/oauth/clients/create (contract §9). The secret is always generated; a
 * client id may be given (for migrations), else one is generated.
 */
export const oauthCreateSchema = /* @__PURE__ */ (() => storableBody(z.object({ api_id: idSchema, ...clientFields })))();
export type OAuthCreate = z.infer<typeof oauthCreateSchema>;

/** Body of POST /api/apis/oauth/{apiID}: the gateway create's, the API taken from the path. */
export const oauthDashboardCreateSchema = /* @__PURE__ */ (() => storableBody(z.object(clientFields)))();

/**
 * Body of PUT /gw/oauth/clients/{apiID}/{clientID}: every member optional. It replaces
 * redirect_uri, policy_id, meta_data and description (omitted ones are emptied); ids that are
 * sent must be the path's, and the secret never changes.
 */
export const oauthUpdateSchema = /* @__PURE__ */ (() =>
  storableBody(
    z.object({
      api_id: idSchema.optional(),
      client_id: idSchema.optional(),
      redirect_uri: z
        .union([redirectUri, z.literal('')])
        .optional()
        .default(''),
      ...replacedFields,
      secret: z.string().max(1024).optional(),
    }),
  ))();
export type OAuthUpdate = z.infer<typeof oauthUpdateSchema>;

/** An OAuth client as reads show it: never the secret. */
export const oauthClientSchema = /* @__PURE__ */ (() =>
  z.object({
    client_id: z.string(),
    api_id: z.string(),
    redirect_uri: z.string(),
    policy_id: z.string(),
    meta_data: looseObject,
    description: z.string(),
  }))();
export type OAuthClient = z.infer<typeof oauthClientSchema>;

/** The create answer: the client with its clear secret, shown this once. */
export const oauthCreatedSchema = /* @__PURE__ */ (() => oauthClientSchema.extend({ secret: z.string() }))();
export const oauthClientListSchema = /* @__PURE__ */ (() => z.array(oauthClientSchema))();

/** GET /api/apis/oauth/{apiID}: an API's clients, paged by number (an API has few clients: they are read at once). */
export const oauthPageQuerySchema = /* @__PURE__ */ (() => pageQuerySchema.omit({ cursor: true }))();
export const oauthClientPageSchema = /* @__PURE__ */ (() => z.object({ apps: z.array(oauthClientSchema), pages: z.number().int() }))();
/** DELETE /api/apis/oauth/{apiID}/{clientID}: nothing in Meta. */
export const oauthDeletedSchema = /* @__PURE__ */ (() => okEnvelope(z.null()))();
