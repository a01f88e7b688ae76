import * as z from 'zod';
import { gwApiGatewaySchema } from './api-oas';
import { idSchema, pageQuerySchema, shortText, longText } from './common';
import { ASSET_KIND } from './value-lists';

/**
 * `data` is an OpenAPI document, often a partial one (a template may hold only paths or only
 * the extension), so only its `x-gw-api-gateway` is checked; other members are kept as sent.
 */
const assetDataSchema = /* @__PURE__ */ (() => z.looseObject({ 'x-gw-api-gateway': gwApiGatewaySchema.optional() }))();

/**
 * Body of create and replace. `kind` is free text here so that a wrong kind is 422, not 400; the
 * document names the one kind, so a client working from it sends no other.
 * `_id`, `org_id` and `last_updated` are server-owned: accepted (a client may send back what it
 * read) and ignored. Other unknown members are dropped.
 */
export const assetInputSchema = /* @__PURE__ */ (() =>
  z.object({
    id: idSchema.optional(),
    name: shortText.optional(),
    description: longText.optional(),
    kind: shortText.optional().meta({ enum: [ASSET_KIND], description: `Only ${ASSET_KIND} (the default); any other kind is 422` }),
    data: assetDataSchema,
    _id: z.string().max(128).optional(),
    org_id: z.string().max(128).optional(),
    last_updated: z.string().max(64).optional(),
  }))();
export type AssetInput = z.infer<typeof assetInputSchema>;

/** An asset as every read shows it. */
export const assetSchema = /* @__PURE__ */ (() =>
  z.object({
    _id: z.string(),
    id: z.string().optional(),
    name: z.string(),
    description: z.string(),
    kind: z.literal(ASSET_KIND),
    data: z.record(z.string(), z.unknown()),
    org_id: z.string(),
    last_updated: z.string(),
  }))();
export type Asset = z.infer<typeof assetSchema>;

export const assetListQuerySchema = pageQuerySchema;
export const assetListSchema = /* @__PURE__ */ (() =>
  z.object({
    assets: z.array(assetSchema),
    pages: z.number().int(),
    next_cursor: z.string().optional(),
  }))();
