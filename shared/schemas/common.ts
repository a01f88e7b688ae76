import * as z from 'zod';
import { LIMITS } from '../limits';

/** Every id taken from a path or a body (contract §4); checked before any storage key is built. */
export const ID_PATTERN = /^[A-Za-z0-9._~-]{1,128}$/;
export const idSchema = /* @__PURE__ */ (() => z.string().regex(ID_PATTERN, 'must be 1-128 characters of A-Z a-z 0-9 . _ ~ -'))();

/**
 * Words a path parameter never takes, because a path of its own sits where the parameter would
 * (`/api/apis/oas` beside `/api/apis/{apiID}`): derived from the route table by reservedWords()
 * (shared/http/route-match.ts) and checked against it by test/unit/route-match.test.ts. A key id
 * is always generated, so only API ids, which clients choose, are refused for them.
 */
export const RESERVED_PATH_WORDS = { apiID: ['create', 'import', 'oas'], keyRef: ['create'], orgID: ['import'] } as const;

/** An API id a client chooses (contract §4): an id, but none of the words fixed paths hold where an API id would be. */
export const apiIdSchema = /* @__PURE__ */ (() =>
  idSchema
    .refine((id) => !(RESERVED_PATH_WORDS.apiID as readonly string[]).includes(id), {
      message: `must not be ${RESERVED_PATH_WORDS.apiID.join(' / ')}: a path of its own sits where that API id would`,
    })
    .meta({ not: { enum: [...RESERVED_PATH_WORDS.apiID] } }))();

/** Basic-auth user names may also hold `@` and `+`. */
export const usernameSchema = /* @__PURE__ */ (() => z.string().regex(/^[A-Za-z0-9._~@+-]{1,128}$/, 'must be 1-128 characters of A-Z a-z 0-9 . _ ~ - @ +'))();

/** Database ids (`_id`, organisation, user, webhook, asset, API `id`): 24 lowercase hex. */
export const dbIdSchema = /* @__PURE__ */ (() => z.string().regex(/^[0-9a-f]{24}$/, 'must be 24 lowercase hex characters'))();

export const shortText = /* @__PURE__ */ (() => z.string().max(LIMITS.shortString))();
export const longText = /* @__PURE__ */ (() => z.string().max(LIMITS.longString))();

/** Free-form object (meta_data and similar): any members, kept as sent. */
export const looseObject = /* @__PURE__ */ (() => z.record(z.string(), z.unknown()))();

/** Query booleans arrive as text. */
export const queryBool = /* @__PURE__ */ (() => z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'))();

/** Paging query (contract §5): p 1-based, absent/0 = 1, negative = all; page_size 1..100. */
export const pageQuerySchema = /* @__PURE__ */ (() =>
  z.object({
    p: z.coerce.number().int().min(-1_000_000).max(1_000_000).optional(),
    page_size: z.coerce.number().int().min(1).max(100).optional(),
    cursor: z.string().max(2048).optional(),
  }))();
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** Dashboard and admin success (contract §3), with the route's own Meta. */
export const okEnvelope = <M extends z.ZodType>(meta: M) => z.object({ Status: z.literal('OK'), Message: z.string(), Meta: meta });
/** The success envelope of a result that names an id (`ID`). */
export const okEnvelopeWithId = <M extends z.ZodType>(meta: M) => okEnvelope(meta).extend({ ID: z.string() });

/** Meta is the id of the object the request created, changed or deleted. */
export const okIdSchema = /* @__PURE__ */ (() => okEnvelope(z.string()))();
/** Meta is the database id, ID the id the client gave (or the database id again). */
export const okIdPairSchema = /* @__PURE__ */ (() => okEnvelopeWithId(z.string()))();
/** Nothing in Meta. */
export const okNullSchema = /* @__PURE__ */ (() => okEnvelope(z.null()))();

/** Gateway write result (contract §3). */
export const gatewayWriteSchema = /* @__PURE__ */ (() =>
  z.object({
    key: z.string(),
    status: z.literal('ok'),
    action: z.enum(['added', 'modified', 'deleted']),
  }))();
/** The gateway write result of a key: with its hash. */
export const keyWriteSchema = /* @__PURE__ */ (() => gatewayWriteSchema.extend({ key_hash: z.string() }))();
