/**
 * An organisation's export file (docs/operating/organisations.md "Move an organisation"): one JSON
 * document, versioned by `format` and `version`, that `POST /admin/organisations/import` takes
 * back. Each object is as the store holds it, without what belongs to the installation that wrote
 * it (versions, counters, access keys, sealed secrets). The ids each object names are checked
 * here, and the whole file as a body stored as attributes (storable numbers, names and depth).
 */
import * as z from 'zod';
import { dbIdSchema, idSchema, okEnvelope, usernameSchema } from './common';
import { keySessionSchema } from './keys';
import { domainSchema, orgIdSchema } from './organisations';
import { KEY_REQUEST_STATES } from './value-lists';
import { storableBody, storedLooseObject } from './storable';

export const FILE_FORMAT = 'gw-organisation';
export const FILE_VERSION = 1;

const stamp = /* @__PURE__ */ (() => z.string().min(1).max(64))();
const hex64 = /* @__PURE__ */ (() => z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex characters'))();

const apiSchema = /* @__PURE__ */ (() =>
  z.object({
    id: dbIdSchema,
    api_id: idSchema,
    org_id: idSchema,
    name: z.string().max(1024),
    kind: z.enum(['classic', 'oas']),
    classic: z.record(z.string(), z.unknown()),
    oas: z.record(z.string(), z.unknown()).optional(),
    base_api_id: idSchema.optional(),
    categories: z.array(z.string().max(1024)).max(1000),
    created_at: stamp,
    updated_at: stamp,
  }))();

const keySchema = /* @__PURE__ */ (() =>
  z
    .object({
      session: keySessionSchema.and(z.looseObject({ key_hash: hex64, org_id: idSchema, date_created: stamp, last_updated: stamp })),
      basic_auth_hash: z.string().max(1024).optional(),
      username: usernameSchema.optional(),
    })
    .strict())();

/**
 * The whole file, stored as attributes but for API definitions (compressed): every number, member
 * name and nesting is checked as a stored body's, its objects two levels in (a kind, then an object).
 */
export const organisationFileSchema = /* @__PURE__ */ (() =>
  storableBody(
    z
      .object({
        format: z.literal(FILE_FORMAT),
        version: z.literal(FILE_VERSION),
        organisation: storedLooseObject({ id: orgIdSchema, created_at: stamp, updated_at: stamp, active: z.boolean().optional() }),
        domains: z.array(z.object({ domain: domainSchema, org_id: idSchema, granted_at: stamp }).strict()).max(1000),
        organisation_session: z
          .object({ session: keySessionSchema.and(z.looseObject({ org_id: idSchema })), last_updated: stamp })
          .strict()
          .nullable(),
        apis: z.array(apiSchema).max(100_000),
        policies: z.array(storedLooseObject({ id: idSchema, _id: dbIdSchema, org_id: idSchema, date_created: stamp, last_updated: stamp })).max(100_000),
        oauth_clients: z
          .array(
            storedLooseObject({
              client_id: idSchema,
              api_id: idSchema,
              org_id: idSchema,
              secret_hash: z.string().min(1).max(1024),
              created_at: stamp,
              updated_at: stamp,
            }),
          )
          .max(100_000),
        keys: z.array(keySchema).max(1_000_000),
        webhooks: z
          .array(
            storedLooseObject({
              id: dbIdSchema,
              org_id: idSchema,
              created_at: stamp,
              updated_at: stamp,
              signing_secret: z.string().min(1).max(256).optional(),
            }),
          )
          .max(10_000),
        templates: z
          .array(
            storedLooseObject({
              _id: dbIdSchema,
              id: idSchema.optional(),
              org_id: idSchema,
              data: z.record(z.string(), z.unknown()),
              created_at: stamp,
              last_updated: stamp,
            }),
          )
          .max(100_000),
        users: z
          .array(
            storedLooseObject({
              id: dbIdSchema,
              org_id: idSchema,
              email_address: z.string().min(1).max(320),
              email_lower: z.string().min(1).max(320),
              created_at: stamp,
            }),
          )
          .max(100_000),
        // The developer portal (docs/using/developer-portal.md); files written before it carry none of these members.
        portal_settings: storedLooseObject({ org_id: idSchema, enabled: z.boolean(), updated_at: stamp }).nullable().optional(),
        catalogue: z
          .array(
            storedLooseObject({
              api_id: idSchema,
              org_id: idSchema,
              plans: z
                .array(z.looseObject({ id: idSchema, policy_id: idSchema }))
                .min(1)
                .max(10),
            }),
          )
          .max(100_000)
          .optional(),
        developers: z
          .array(
            storedLooseObject({
              id: dbIdSchema,
              org_id: idSchema,
              email_lower: z.string().min(1).max(320),
              password_hash: z.string().min(1).max(1024),
              created_at: stamp,
            }),
          )
          .max(1_000_000)
          .optional(),
        key_requests: z
          .array(
            storedLooseObject({
              id: dbIdSchema,
              org_id: idSchema,
              developer_id: dbIdSchema,
              api_id: idSchema,
              plan_id: idSchema,
              state: z.enum(KEY_REQUEST_STATES),
              key_hash: hex64.optional(),
              created_at: stamp,
            }),
          )
          .max(1_000_000)
          .optional(),
      })
      .strict(),
    2,
  ))();

export type OrganisationFile = z.infer<typeof organisationFileSchema>;

/** GET /admin/organisations/{orgID}/export: `secrets=true` carries each webhook's signing secret in clear. */
export const exportQuerySchema = /* @__PURE__ */ (() => z.object({ secrets: z.enum(['true', 'false']).optional() }).strict())();

/** POST /admin/organisations/import: `background=true` answers once the file is checked and the organisation created, and writes the rest in the background. */
export const importQuerySchema = /* @__PURE__ */ (() =>
  z
    .object({
      background: z
        .enum(['true', 'false'])
        .optional()
        .meta({ description: 'true: answer once the file is checked and the organisation created; its objects are written in the background' }),
    })
    .strict())();

/** What an import wrote: the organisation, how many objects of each kind, and whether the rest is written in the background. */
export const importResultSchema = /* @__PURE__ */ (() =>
  z.object({
    Status: z.literal('OK'),
    Message: z.string(),
    Meta: z.object({
      org_id: z.string(),
      state: z.enum(['done', 'importing']).meta({
        description: '`importing`: the request ran out of time and the rest is written in the background (GET /admin/organisations/{orgID}/import)',
      }),
      imported: z.record(z.string(), z.number().int()).meta({ description: 'What the file carries, by kind: all of it is stored once the state is done' }),
      webhook_secrets: z.enum(['carried', 'new']),
    }),
  }))();

/** An organisation's last import, written by its request and, when that ran out of time, in the background (GET /admin/organisations/{orgID}/import). */
const importProgressSchema = /* @__PURE__ */ (() =>
  z
    .object({
      org_id: z.string(),
      state: z.enum(['importing', 'done', 'failed']).meta({ description: '`failed`: a write was refused; the organisation is being offboarded' }),
      written: z.number().int().min(0).meta({ description: 'Objects written in order so far (every one before it is stored)' }),
      total: z.number().int().min(0).meta({ description: 'Objects the import writes in all' }),
      started_at: z.string().meta({ description: 'When the import was asked for' }),
      handed_over_at: z
        .string()
        .nullable()
        .meta({ description: 'When the rest went to the background; null while its request writes, or when the request wrote everything' }),
      finished_at: z.string().nullable(),
      reason: z.string().nullable().meta({ description: 'Why a failed run stopped' }),
    })
    .meta({ description: "An organisation's last import: its request's part and the background's" }))();
export type ImportProgress = z.infer<typeof importProgressSchema>;

export const importProgressResultSchema = /* @__PURE__ */ (() => okEnvelope(importProgressSchema))();
