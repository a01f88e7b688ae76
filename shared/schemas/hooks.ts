import * as z from 'zod';
import { okEnvelope, pageQuerySchema, shortText } from './common';
import { DENIED_HEADER_NAMES, HEADER_LIMITS, HEADER_NAME, HEADER_VALUE, HEADER_VALUE_MASK, headerMapProblems } from './webhook-headers';
import { HTTP_URL_PATTERN, RESERVED_HOST_URL_PATTERN } from './url-patterns';
import { MAX_TARGET_CHARS, targetRefusal } from './webhook-target';

export const HOOK_METHODS = ['DELETE', 'GET', 'PUT', 'POST', 'PATCH'] as const;

/** A header name outside RFC 9110's token characters would be refused when the hook fires. */
const headerName = /* @__PURE__ */ (() => z.string().max(HEADER_LIMITS.nameChars).regex(HEADER_NAME))();
/** CR/LF in a value would let a stored hook smuggle extra headers into its calls. */
const headerValue = /* @__PURE__ */ (() =>
  z
    .string()
    .max(HEADER_LIMITS.valueChars)
    .regex(HEADER_VALUE, 'must not contain line breaks or other control characters (tab excepted), nor characters above U+00FF'))();

/** The hook's own headers: valid names and values, none the delivery owns, no case twins, bounded (docs/using/events-and-webhooks.md). */
const headerMap = /* @__PURE__ */ (() =>
  z
    .record(headerName, headerValue, {
      error: (issue) =>
        issue.code === 'invalid_key' ? `must be a valid HTTP header name (RFC 9110 token, 1-${HEADER_LIMITS.nameChars} characters)` : undefined,
    })
    .superRefine((map, ctx) => {
      for (const p of headerMapProblems(map)) ctx.addIssue({ code: 'custom', message: p.message, path: p.name === undefined ? [] : [p.name] });
    })
    .meta({
      maxProperties: HEADER_LIMITS.count,
      description:
        `At most ${HEADER_LIMITS.count} headers and ${HEADER_LIMITS.totalChars} characters of names and values together; ` +
        `names unique ignoring case; not these (any case): ${DENIED_HEADER_NAMES.join(', ')}. Values are write-only: ` +
        `a value of ${HEADER_VALUE_MASK} (what reads show) keeps the value stored under that name (400 when there is none)`,
    }))();

/** An absolute http(s) URL that does not name this machine or a private, link-local or metadata address. */
const targetPath = /* @__PURE__ */ (() =>
  z
    .string()
    .max(MAX_TARGET_CHARS)
    .superRefine((value, ctx) => {
      const why = targetRefusal(value);
      if (why) ctx.addIssue({ code: 'custom', message: why });
    })
    // What the document can say of it: the URL's form, the names it never calls, and that its credentials are write-only.
    .meta({
      pattern: HTTP_URL_PATTERN,
      not: { pattern: RESERVED_HOST_URL_PATTERN },
      description:
        'The URL each delivery calls. Its credentials (the userinfo, user:password@, and the values of query parameters named like ' +
        `credentials: token, key, secret, auth, sig, password...) are write-only: ${HEADER_VALUE_MASK} in one's place keeps the stored one ` +
        '(400 when there is none)',
    }))();

/**
 * Webhook body of POST /api/hooks and PUT /api/hooks/{hookID}. PUT is a
 * full replace, so the same schema serves both: what is omitted takes its empty default.
 */
export const hookInputSchema = /* @__PURE__ */ (() =>
  z.object({
    name: shortText.optional().default(''),
    method: z.enum(HOOK_METHODS, { error: `must be one of ${HOOK_METHODS.join(', ')}` }),
    target_path: targetPath,
    header_map: headerMap.optional().default({}),
    template_path: shortText.optional(),
    event_timeout: z.number().int().min(0).max(3600).optional(),
  }))();
export type HookInput = z.infer<typeof hookInputSchema>;

/** A stored webhook as every read shows it. */
export const hookSchema = /* @__PURE__ */ (() =>
  z.object({
    id: z.string(),
    org_id: z.string(),
    name: z.string(),
    method: z.enum(HOOK_METHODS),
    target_path: z
      .string()
      .meta({ description: `The target URL; its credentials (userinfo, credential-named query parameter values) read as ${HEADER_VALUE_MASK}` }),
    header_map: z
      .record(z.string(), z.string())
      .meta({ description: `Header names as stored; every value reads as ${HEADER_VALUE_MASK} (values are write-only)` }),
    template_path: z.string().optional(),
    event_timeout: z.number().int().optional(),
    created_at: z.string(),
    updated_at: z.string(),
    version: z.number().int(),
  }))();
export type Hook = z.infer<typeof hookSchema>;

export const hookListQuerySchema = pageQuerySchema;
export const hookListSchema = /* @__PURE__ */ (() =>
  z.object({
    hooks: z.array(hookSchema),
    pages: z.number().int(),
    next_cursor: z.string().optional(),
  }))();

/** The create and rotation answers: the envelope plus the signing secret, shown this once. */
export const hookSecretAnswerSchema = /* @__PURE__ */ (() =>
  okEnvelope(z.string().meta({ description: 'the hook id' })).extend({
    signing_secret: z.string().meta({ description: 'HMAC-SHA256 key of X-Gw-Signature; shown only in this answer' }),
  }))();

const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One entry of a hook's delivery log (contract §11). */
const deliverySchema = /* @__PURE__ */ (() =>
  z.object({
    id: z.string(),
    event_id: z.string(),
    event: z.string(),
    api_id: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    response_code: z.number().int().optional(),
    duration_ms: z.number().optional(),
    next_attempt_at: z.string().optional(),
    last_attempt_at: z.string().optional(),
    error: z
      .string()
      .optional()
      .meta({
        description:
          'Why the last attempt did not deliver, as a class: refused_target, connection_failed, tls_error, timeout, http_error (see response_code), ' +
          'hook_deleted, refused_headers, secret_unavailable',
      }),
    created_at: z.string(),
    updated_at: z.string(),
  }))();

export const deliveryListQuerySchema = pageQuerySchema;
export const deliveryListSchema = /* @__PURE__ */ (() =>
  z.object({
    deliveries: z.array(deliverySchema),
    pages: z.number().int(),
    next_cursor: z.string().optional(),
  }))();

/** The test route's answer: Meta names the Ping's delivery and event. */
export const pingAnswerSchema = /* @__PURE__ */ (() => okEnvelope(z.object({ delivery_id: z.string(), event_id: z.string() })))();
