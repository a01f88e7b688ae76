/** The audit trail (contract §12): its entries and the filters of its lists. */
import * as z from 'zod';
import { idSchema, pageQuerySchema } from './common';

/** The configuration objects of the trail, by the name its entries give them. */
const AUDIT_OBJECT_TYPES = [
  'organisation',
  'user',
  'api',
  'key',
  'policy',
  'org_key',
  'webhook',
  'template',
  'oauth_client',
  'domain',
  'portal',
  'catalogue_entry',
  'developer',
  'key_request',
] as const;
export type AuditObjectType = (typeof AUDIT_OBJECT_TYPES)[number];

const instant = /* @__PURE__ */ (() => z.iso.datetime({ offset: true }))();

export const auditListQuerySchema = /* @__PURE__ */ (() =>
  pageQuerySchema.extend({
    object_type: z.enum(AUDIT_OBJECT_TYPES).optional().meta({ description: 'Only entries of objects of this type' }),
    object_id: idSchema.optional().meta({ description: "Only entries of the object of this id (a key's is its key_hash)" }),
    actor: z.string().min(1).max(254).optional().meta({ description: 'Only changes by this user (id or e-mail), or by gateway, admin or system' }),
    from: instant.optional().meta({ description: 'Only changes made at or after this instant (ISO 8601)' }),
    to: instant.optional().meta({ description: 'Only changes made at or before this instant (ISO 8601)' }),
  }))();
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;

export const adminAuditListQuerySchema = /* @__PURE__ */ (() =>
  auditListQuerySchema.extend({
    org_id: idSchema.optional().meta({ description: "Only this organisation's entries" }),
  }))();
export type AdminAuditListQuery = z.infer<typeof adminAuditListQuerySchema>;

const actorSchema = /* @__PURE__ */ (() =>
  z
    .discriminatedUnion('type', [
      z.object({ type: z.literal('user'), id: z.string(), email: z.string().optional() }),
      z.object({ type: z.literal('gateway') }),
      z.object({ type: z.literal('admin') }),
      z.object({ type: z.literal('developer'), id: z.string() }),
      z.object({ type: z.literal('system') }),
    ])
    .meta({
      description: 'Who made the change: a dashboard user, the gateway, an operator (admin), a developer of the portal, or the service itself (system)',
    }))();

const patchOperationSchema = /* @__PURE__ */ (() =>
  z.object({
    op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
    path: z.string(),
    value: z.unknown().optional(),
    from: z.string().optional(),
  }))();

export const auditEntrySchema = /* @__PURE__ */ (() =>
  z.object({
    id: z.string(),
    at: z.string().meta({ description: 'When the change was made (ISO 8601, ms)' }),
    org_id: z.string(),
    actor: actorSchema,
    request_id: z.string().nullable().meta({ description: 'The X-Request-Id of the request that made the change' }),
    action: z.enum(['create', 'update', 'delete']),
    object: z.object({ type: z.enum(AUDIT_OBJECT_TYPES), id: z.string() }),
    changes: z.array(patchOperationSchema).meta({
      description:
        'RFC 6902 JSON Patch from the object before the change (a create: {}) to the object after it (a delete: {}), secrets and credential header values as ' +
        '********; each remove and replace is preceded by a test of the old value',
    }),
    changes_omitted_bytes: z.number().int().optional().meta({ description: 'Set when the patch was too large to keep: its size as JSON (changes is then [])' }),
  }))();

export const auditListSchema = /* @__PURE__ */ (() =>
  z.object({
    entries: z.array(auditEntrySchema),
    pages: z.number().int(),
    next_cursor: z.string().optional(),
  }))();
