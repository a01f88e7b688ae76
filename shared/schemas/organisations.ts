import * as z from 'zod';
import { ORG_LIMIT_MAX, WEBHOOK_LIMITS } from '../limits';
import { dbIdSchema, idSchema, pageQuerySchema, RESERVED_PATH_WORDS, shortText } from './common';
import { storableBody, storedLooseObject, storedObject } from './storable';

const uiSchema = /* @__PURE__ */ (() =>
  storedLooseObject({
    cloud: z.boolean(),
    cloudmenu: z.boolean(),
    dev: z.boolean(),
    dont_allow_license_management: z.boolean(),
    dont_allow_license_management_view: z.boolean(),
    dont_show_admin_sockets: z.boolean(),
    hide_help: z.boolean(),
    default_lang: shortText,
    designer: storedObject,
    languages: storedObject,
    login_page: storedObject,
    nav: storedObject,
    portal_section: storedObject,
    uptime: storedObject,
    labs: storedLooseObject({ streaming: storedObject.optional() }),
    onboarding: storedLooseObject({ enabled: z.boolean().optional() }),
    trial: storedLooseObject({
      end_date: z.number().int().optional(),
      crm_form: storedLooseObject({ form_id: shortText.optional(), portal_id: shortText.optional(), region: shortText.optional() }).optional(),
    }),
  }).partial())();

/**
 * An organisation's own limits in place of the installation's (docs/reference/limits.md): units per
 * window of dashboard reads, writes, webhook tests and portal requests, and how many webhooks it may hold. A member
 * left out keeps the installation's figure.
 */
const limit = (max: number) => z.number().int().min(1).max(max).optional();
const orgLimitOverridesSchema = /* @__PURE__ */ (() =>
  z
    .object({
      reads: limit(ORG_LIMIT_MAX),
      writes: limit(ORG_LIMIT_MAX),
      hook_tests: limit(ORG_LIMIT_MAX),
      portal: limit(ORG_LIMIT_MAX),
      hooks: limit(WEBHOOK_LIMITS.hooksPerOrgMax),
    })
    .strict()
    .meta({ description: "Limits of this organisation in place of the installation's; a member left out keeps the installation's figure" }))();
export type OrgLimitOverrides = z.infer<typeof orgLimitOverridesSchema>;

/** An organisation's id: any id but the word of the import's own path (POST /admin/organisations/import). */
export const orgIdSchema = /* @__PURE__ */ (() =>
  idSchema
    .refine((id) => !(RESERVED_PATH_WORDS.orgID as readonly string[]).includes(id), { message: 'must not be import: a path of its own sits there' })
    .meta({ not: { enum: [...RESERVED_PATH_WORDS.orgID] } }))();

const organisationFields = /* @__PURE__ */ (() =>
  z.object({
    id: orgIdSchema.optional(),
    /**
     * false suspends the organisation (contract §9): its keys, dashboard users, gateway writes and
     * webhooks are refused until it is true again; nothing is deleted.
     */
    active: z.boolean().optional(),
    limits: orgLimitOverridesSchema.optional(),
    owner_name: shortText.optional(),
    owner_slug: shortText.optional(),
    cname: shortText.optional(),
    cname_enabled: z.boolean().optional(),
    developer_count: z.number().int().min(0).optional(),
    developer_quota: z.number().int().optional(),
    hybrid_enabled: z.boolean().optional(),
    sso_enabled: z.boolean().optional(),
    additional_permissions: storedObject.optional(),
    event_options: storedObject.optional(),
    org_options_meta: storedObject.optional(),
    open_policy: storedLooseObject({ enabled: z.boolean().optional(), rules: shortText.optional() }).optional(),
    apis: z
      .array(storedLooseObject({ api_human_name: shortText.optional(), api_id: idSchema.optional() }))
      .max(10_000)
      .nullable()
      .optional(),
    ui: uiSchema.optional(),
  }))();
/** Body of POST /admin/organisations: stored as DynamoDB attributes, so every number must be storable. */
export const organisationInputSchema = /* @__PURE__ */ (() => storableBody(organisationFields))();
export type OrganisationInput = z.infer<typeof organisationInputSchema>;

const organisationSchema = /* @__PURE__ */ (() =>
  organisationFields.extend({
    id: z.union([idSchema, dbIdSchema]),
    created_at: z.string(),
    updated_at: z.string(),
    version: z.number().int(),
  }))();
export type Organisation = z.infer<typeof organisationSchema>;

/** GET /admin/organisations/{orgID}: the organisation as stored, with its stamps and version. */
export const organisationReadSchema = /* @__PURE__ */ (() => organisationSchema.loose())();

/** GET /admin/organisations: paged; `q` keeps those whose id or owner_name contains it, ignoring case. */
export const organisationListQuerySchema = /* @__PURE__ */ (() => pageQuerySchema.extend({ q: z.string().min(1).max(128).optional() }))();

export const organisationListSchema = /* @__PURE__ */ (() =>
  z.object({
    pages: z.number().int(),
    organisations: z.array(organisationReadSchema),
    next_cursor: z.string().optional(),
  }))();

/**
 * A domain an installation admin grants an organisation (contract §13): a host name as the Host
 * header names it, without port or trailing dot (RFC 1123 labels), or an IPv4 address; compared
 * in lower case.
 */
export const domainSchema = /* @__PURE__ */ (() =>
  z
    .string()
    .max(253)
    .regex(
      /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/,
      'a host name (labels of letters, digits and hyphens, separated by dots) or an IPv4 address, without port or trailing dot',
    )
    .transform((d) => d.toLowerCase()))();

/** A domain granted to an organisation, as the admin list answers it. */
export const domainGrantSchema = /* @__PURE__ */ (() => z.object({ domain: z.string(), granted_at: z.string() }))();
