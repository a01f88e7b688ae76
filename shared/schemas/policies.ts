import * as z from 'zod';
import { idSchema, okEnvelope, shortText } from './common';
import { LIMITS } from '../limits';
import { accessRightsSchema } from './keys';
import { smoothingSchema } from './smoothing';
import { storableBody, storableNumber, storedLooseObject, storedObject } from './storable';

const int = /* @__PURE__ */ (() => z.number().int())();

const KEY_WIDE_PARTITIONS = ['acl', 'complexity', 'quota', 'rate_limit'] as const;
const isTrue = (name: string) => ({ required: [name], properties: { [name]: { const: true } } });

/**
 * Which parts of a key a policy sets; none set means all of them (contract §6). per_api alone
 * (perApiAlone below) is said in JSON Schema for the document.
 */
export const partitionsSchema = /* @__PURE__ */ (() =>
  storedLooseObject({
    acl: z.boolean().optional(),
    complexity: z.boolean().optional(),
    per_api: z.boolean().optional(),
    quota: z.boolean().optional(),
    rate_limit: z.boolean().optional(),
  }).meta({
    description: 'per_api true cannot be combined with acl, complexity, quota or rate_limit true',
    not: { allOf: [isTrue('per_api'), { anyOf: KEY_WIDE_PARTITIONS.map(isTrue) }] },
  }))();
export type Partitions = z.infer<typeof partitionsSchema>;

const policyFields = /* @__PURE__ */ (() => ({
  _id: idSchema.optional(),
  id: idSchema,
  access_rights: accessRightsSchema.nullable().optional(),
  active: z.boolean().optional(),
  date_created: z.string().max(64).optional(),
  enable_http_signature_validation: z.boolean().optional(),
  graphql_access_rights: storedObject.nullable().optional(),
  hmac_enabled: z.boolean().optional(),
  is_inactive: z.boolean().optional(),
  key_expires_in: int.optional(),
  last_updated: z.string().max(64).optional(),
  max_query_depth: int.optional(),
  meta_data: storedObject.nullable().optional(),
  name: shortText.optional(),
  org_id: z.union([idSchema, z.literal('')]).optional(),
  partitions: partitionsSchema.optional(),
  per: storableNumber.optional(),
  quota_max: int.optional(),
  quota_renewal_rate: int.optional(),
  rate: storableNumber.optional(),
  smoothing: smoothingSchema.optional(),
  tags: z.array(shortText).max(LIMITS.arrayItems).nullable().optional(),
  throttle_interval: storableNumber.optional(),
  throttle_retry_limit: storableNumber.optional(),
}))();

/**
 * per_api carries its limits inside each access entry, so mixing it with the partitions that set
 * key-wide limits would leave two answers to "what is this key's rate" (the gateway refuses it too).
 */
function perApiAlone(p: { partitions?: Partitions | undefined }, ctx: z.RefinementCtx) {
  const parts = p.partitions;
  if (parts?.per_api && KEY_WIDE_PARTITIONS.some((k) => parts[k])) {
    ctx.addIssue({ code: 'custom', path: ['partitions', 'per_api'], message: 'per_api cannot be combined with acl, complexity, quota or rate_limit' });
  }
}

/** A policy; `id` is the client's (required on POST /gw/policies). */
export const policySchema = /* @__PURE__ */ (() => storableBody(storedLooseObject(policyFields).superRefine(perApiAlone)))();
export type Policy = z.infer<typeof policySchema>;

/** A policy as the dashboard writes it: `id` optional (a create generates 24 hex; an update takes the path's). */
export const policyDashboardSchema = /* @__PURE__ */ (() =>
  storableBody(storedLooseObject({ ...policyFields, id: idSchema.optional() }).superRefine(perApiAlone)))();
export type PolicyDashboard = z.infer<typeof policyDashboardSchema>;

/** GET /api/portal/policies: a page of the organisation's policies, in the spec's policy wrapper names. */
export const policyPageSchema = /* @__PURE__ */ (() => z.object({ Data: z.array(policySchema), Pages: int, next_cursor: z.string().optional() }))();

/**
 * An exported policy whose `id` is blank or absent: every member as in a policy, and `_id`, which
 * becomes its id. The import takes it through `importedPolicySchema`'s preprocess; this states
 * the same rules for the OpenAPI document, which cannot express a preprocess.
 */
export const exportedPolicySchema = /* @__PURE__ */ (() =>
  storableBody(storedLooseObject({ ...policyFields, id: z.literal('').optional(), _id: idSchema }).superRefine(perApiAlone)))();

/** Exported policies may carry only the database `_id` (their `id` blank): that id is kept. */
export const importedPolicySchema = /* @__PURE__ */ (() =>
  z.preprocess((v) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const p = v as Record<string, unknown>;
      if ((p.id === undefined || p.id === '') && typeof p._id === 'string') return { ...p, id: p._id };
    }
    return v;
  }, policySchema))();

/**
 * Import wrapper of POST /admin/policies/import: every policy is validated before any is written,
 * and no number anywhere in the body may be one storage cannot hold (contract §11).
 */
export const policyImportSchema = /* @__PURE__ */ (() =>
  storableBody(
    storedLooseObject({
      Data: z
        .array(importedPolicySchema)
        .min(1)
        .max(1000)
        .superRefine((list, ctx) => {
          const seen = new Set<string>();
          list.forEach((p, i) => {
            if (seen.has(p.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate policy id ${p.id} in this import` });
            seen.add(p.id);
          });
        }),
      Pages: int.min(0).optional(),
    }),
    // Each policy is stored as an item of its own, two levels inside this body (Data, its index).
    2,
  ))();

/** Answer of POST /admin/policies/import: Meta maps each imported id to true. */
export const policiesImportedSchema = /* @__PURE__ */ (() => okEnvelope(z.record(z.string(), z.literal(true))))();
