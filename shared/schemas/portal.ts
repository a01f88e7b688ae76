/**
 * The developer portal (docs/using/developer-portal.md): an organisation's settings and catalogue
 * (dashboard, `portal` permission), developers who sign up to it, and their key requests.
 */
import * as z from 'zod';
import { idSchema, okEnvelope, okEnvelopeWithId, pageQuerySchema } from './common';
import { domainSchema } from './organisations';
import { KEY_REQUEST_STATES } from './value-lists';

/** How a developer joins: at once, only with an invitation a user issued, or once a user approves. */
const SIGN_UP_MODES = ['open', 'invitation', 'approval'] as const;

export const portalSettingsSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    enabled: z.boolean().meta({ description: 'Off: every public and developer route of the portal answers 404, as for an organisation without one.' }),
    sign_up: z.enum(SIGN_UP_MODES),
    title: z.string().min(1).max(120).optional(),
    domain: domainSchema.optional().meta({
      description:
        'A domain granted to the organisation (422 otherwise) on which gateways serve the portal: ' +
        "'/' leads to it, and the portal takes '/portal/{orgID}/' and '/console/' there",
    }),
    hook_ids: z.array(idSchema).max(10).optional().meta({
      description: "Webhooks of the organisation that receive every portal event (DeveloperSignedUp, KeyRequested, ...); 422 for one not the organisation's",
    }),
  }))();
export type PortalSettings = z.infer<typeof portalSettingsSchema>;
export const portalSettingsResultSchema = /* @__PURE__ */ (() =>
  portalSettingsSchema.extend({
    org_id: z.string(),
    domain: z.string().optional(),
    updated_at: z.string().optional(),
  }))();

const PLANS_PER_API = 10;

const planSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    id: idSchema,
    name: z.string().min(1).max(120),
    description: z.string().max(2000).optional().default(''),
    policy_id: idSchema.meta({
      description: "A policy of the organisation: the rights, quota and rate of every key the plan issues (422 when not the organisation's)",
    }),
    approval: z.enum(['auto', 'manual']).meta({ description: 'auto: a request is granted at once; manual: a user with portal write approves or refuses it' }),
  }))();
export type Plan = z.infer<typeof planSchema>;

/** Body of PUT /api/portal/catalogue/{apiID}: the API as the catalogue shows it, with its plans. */
export const catalogueEntryBodySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      title: z.string().min(1).max(120).optional(),
      description: z.string().max(4000).optional().default(''),
      plans: z.array(planSchema).min(1).max(PLANS_PER_API),
    })
    .superRefine((b, ctx) => {
      const seen = new Set<string>();
      b.plans.forEach((p, i) => {
        if (seen.has(p.id)) ctx.addIssue({ code: 'custom', path: ['plans', i, 'id'], message: `plan id ${p.id} is used twice` });
        seen.add(p.id);
      });
    }))();
export type CatalogueEntryBody = z.infer<typeof catalogueEntryBodySchema>;

const catalogueEntrySchema = /* @__PURE__ */ (() =>
  z.object({
    api_id: z.string(),
    org_id: z.string(),
    kind: z.enum(['classic', 'oas']),
    title: z.string(),
    description: z.string(),
    plans: z.array(planSchema),
    published_at: z.string(),
    updated_at: z.string(),
  }))();
export type CatalogueEntry = z.infer<typeof catalogueEntrySchema>;
export const catalogueEntryListSchema = /* @__PURE__ */ (() => z.object({ apis: z.array(catalogueEntrySchema) }))();
export const catalogueEntryResultSchema = /* @__PURE__ */ (() => okEnvelopeWithId(catalogueEntrySchema))();

/** What a plan gives, as a developer reads it: its policy's limits, never the policy itself. */
const publicPlanSchema = /* @__PURE__ */ (() =>
  z.object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    approval: z.enum(['auto', 'manual']),
    quota_max: z.number().int(),
    quota_renewal_rate: z.number().int(),
    rate: z.number(),
    per: z.number(),
  }))();
const publicEntrySchema = /* @__PURE__ */ (() =>
  z.object({
    api_id: z.string(),
    title: z.string(),
    description: z.string(),
    kind: z.enum(['classic', 'oas']),
    plans: z.array(publicPlanSchema),
  }))();
export const publicCatalogueSchema = /* @__PURE__ */ (() =>
  z.object({ title: z.string(), sign_up: z.enum(SIGN_UP_MODES), apis: z.array(publicEntrySchema) }))();
export const publicDocumentSchema = /* @__PURE__ */ (() => z.record(z.string(), z.unknown()))();

// --- developers ----------------------------------------------------------------------------------

const DEVELOPER_STATES = ['active', 'pending', 'disabled'] as const;

export const developerSchema = /* @__PURE__ */ (() =>
  z.object({
    id: z.string(),
    org_id: z.string(),
    email_address: z.string(),
    name: z.string(),
    state: z.enum(DEVELOPER_STATES),
    created_at: z.string(),
    updated_at: z.string(),
  }))();
export type Developer = z.infer<typeof developerSchema>;

const password = /* @__PURE__ */ (() => z.string().min(12, 'must be at least 12 characters').max(128))();
const email = /* @__PURE__ */ (() => z.email().max(254))();

export const signUpSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    email_address: email,
    password,
    name: z.string().max(120).optional().default(''),
    invitation: z.string().min(1).max(128).optional().meta({ description: 'The invitation a user issued (sign_up invitation)' }),
  }))();
export type SignUp = z.infer<typeof signUpSchema>;
/** The same answer whether the e-mail was new or taken: a sign-up never tells which e-mails exist. */
export const signUpResultSchema = /* @__PURE__ */ (() => okEnvelope(z.object({ state: z.enum(['active', 'pending']) })))();

export const signInSchema = /* @__PURE__ */ (() => z.strictObject({ email_address: email, password: z.string().min(1).max(128) }))();
export const signInResultSchema = /* @__PURE__ */ (() => okEnvelope(z.object({ token: z.string(), expires_at: z.string(), developer: developerSchema })))();

export const developerListSchema = /* @__PURE__ */ (() =>
  z.object({
    developers: z.array(developerSchema),
    pages: z.number().int(),
    next_cursor: z.string().optional(),
  }))();
export const developerListQuerySchema = /* @__PURE__ */ (() => pageQuerySchema.extend({ state: z.enum(DEVELOPER_STATES).optional() }))();
export const developerUpdateSchema = /* @__PURE__ */ (() => z.strictObject({ state: z.enum(['active', 'disabled']) }))();
export const developerResultSchema = /* @__PURE__ */ (() => okEnvelopeWithId(developerSchema))();

export const invitationBodySchema = /* @__PURE__ */ (() => z.strictObject({ email_address: email }))();
export const invitationResultSchema = /* @__PURE__ */ (() =>
  okEnvelope(z.object({ invitation: z.string(), email_address: z.string(), expires_at: z.string() })))();

// --- key requests ----------------------------------------------------------------------------------

const keyRequestSchema = /* @__PURE__ */ (() =>
  z.object({
    id: z.string(),
    org_id: z.string(),
    developer_id: z.string(),
    developer_email: z.string(),
    api_id: z.string(),
    plan_id: z.string(),
    state: z.enum(KEY_REQUEST_STATES),
    reason: z.string().optional(),
    /** The issued key's hash once the developer collected it (the clear key is shown that once). */
    key_hash: z.string().optional(),
    created_at: z.string(),
    decided_at: z.string().optional(),
    decided_by: z.string().optional(),
  }))();
export type KeyRequest = z.infer<typeof keyRequestSchema>;

export const keyRequestBodySchema = /* @__PURE__ */ (() => z.strictObject({ api_id: idSchema, plan_id: idSchema }))();
export const keyRequestListQuerySchema = /* @__PURE__ */ (() => pageQuerySchema.extend({ state: z.enum(KEY_REQUEST_STATES).optional().default('pending') }))();
export const keyRequestListSchema = /* @__PURE__ */ (() =>
  z.object({
    requests: z.array(keyRequestSchema),
    pages: z.number().int(),
    next_cursor: z.string().optional(),
  }))();
export const myKeyRequestListSchema = /* @__PURE__ */ (() => z.object({ requests: z.array(keyRequestSchema) }))();
export const refuseBodySchema = /* @__PURE__ */ (() => z.strictObject({ reason: z.string().min(1).max(500) }))();
export const keyRequestResultSchema = /* @__PURE__ */ (() => okEnvelopeWithId(keyRequestSchema))();

/** A key shown once: on an automatic plan's request, on collecting an approved one, on a roll. */
export const issuedKeySchema = /* @__PURE__ */ (() =>
  okEnvelope(z.object({ request: keyRequestSchema, key: z.string().optional(), key_hash: z.string().optional() })))();

const developerKeySchema = /* @__PURE__ */ (() =>
  z.object({
    key_hash: z.string(),
    request_id: z.string(),
    api_id: z.string(),
    plan_id: z.string(),
    alias: z.string(),
    quota_max: z.number().int(),
    quota_remaining: z.number().int(),
    quota_renews: z.number().int(),
    rate: z.number(),
    per: z.number(),
  }))();
export const developerKeyListSchema = /* @__PURE__ */ (() => z.object({ keys: z.array(developerKeySchema) }))();

/** GET /portal/{orgID}/keys/{keyHash}/usage: the last `days` whole days, today included. */
export const developerUsageQuerySchema = /* @__PURE__ */ (() => z.object({ days: z.coerce.number().int().min(1).max(90).optional().default(30) }))();
