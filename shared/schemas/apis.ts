import * as z from 'zod';
import { classicApiSchema } from './api-classic';
import { okEnvelope, okEnvelopeWithId, pageQuerySchema } from './common';

export const oasGetQuerySchema = /* @__PURE__ */ (() => z.object({ mode: z.literal('public').optional() }))();

const apiSortSchema = /* @__PURE__ */ (() => z.enum(['name', '-name', 'created_at', '-created_at', 'updated_at', '-updated_at']))();
export const apiListQuerySchema = /* @__PURE__ */ (() => pageQuerySchema.extend({ sort: apiSortSchema.optional().default('-created_at') }))();
export type ApiListQuery = z.output<typeof apiListQuerySchema>;

const looseDoc = /* @__PURE__ */ (() => z.record(z.string(), z.unknown()))();
export const apiListingEntrySchema = /* @__PURE__ */ (() =>
  z.object({
    api_definition: looseDoc,
    oas: looseDoc.optional(),
    api_model: looseDoc,
    categories: z.array(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
    hook_references: z.array(z.unknown()),
    is_site: z.boolean(),
    sort_by: z.number().int(),
    user_group_owners: z.array(z.string()),
    user_owners: z.array(z.string()),
  }))();
export const apiListSchema = /* @__PURE__ */ (() =>
  z.object({
    apis: z.array(apiListingEntrySchema),
    pages: z.number().int(),
    next_cursor: z.string().optional(),
  }))();

/** Body of the dashboard's classic writes (POST /api/apis, PUT /api/apis/{apiID}): the definition under api_definition. */
export const apiDefinitionBodySchema = /* @__PURE__ */ (() => z.object({ api_definition: classicApiSchema }))();

/** A dashboard API create: Meta the database id, ID the api_id. */
export const apiCreatedSchema = /* @__PURE__ */ (() => okEnvelopeWithId(z.string()))();
/** A dashboard API update or delete: nothing in Meta. */
export const apiChangedSchema = /* @__PURE__ */ (() => okEnvelope(z.null()))();
