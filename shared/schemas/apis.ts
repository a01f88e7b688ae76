import * as z from 'zod';
import { classicApiSchema } from './api-classic';
import { okEnvelope, okEnvelopeWithId, pageQuerySchema } from './common';

export const oasGetQuerySchema = z.object({ mode: z.literal('public').optional() });

const apiSortSchema = z.enum(['name', '-name', 'created_at', '-created_at', 'updated_at', '-updated_at']);
export const apiListQuerySchema = pageQuerySchema.extend({ sort: apiSortSchema.optional().default('-created_at') });
export type ApiListQuery = z.output<typeof apiListQuerySchema>;

const looseDoc = z.record(z.string(), z.unknown());
export const apiListingEntrySchema = z.object({
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
});
export const apiListSchema = z.object({
  apis: z.array(apiListingEntrySchema),
  pages: z.number().int(),
  next_cursor: z.string().optional(),
});

/** Body of the dashboard's classic writes (POST /api/apis, PUT /api/apis/{apiID}): the definition under api_definition. */
export const apiDefinitionBodySchema = z.object({ api_definition: classicApiSchema });

/** A dashboard API create: Meta the database id, ID the api_id. */
export const apiCreatedSchema = okEnvelopeWithId(z.string());
/** A dashboard API update or delete: nothing in Meta. */
export const apiChangedSchema = okEnvelope(z.null());
