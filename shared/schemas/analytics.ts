import * as z from 'zod';
import { idSchema, pageQuerySchema, shortText } from './common';
import { storableNumber } from './storable';

/** Most records one POST /gw/analytics may carry (contract §9). */
const MAX_RECORDS = 1000;

/** Milliseconds; a bound keeps the summed counters far inside exact float integers. */
const millis = /* @__PURE__ */ (() => storableNumber.min(0).max(86_400_000))();

/**
 * One request record reported by a gateway (contract §9). Members a gateway adds beyond these
 * (raw request, host, tags...) are accepted and ignored: only the counters are kept.
 */
export const analyticsRecordSchema = /* @__PURE__ */ (() =>
  z.object({
    api_id: idSchema,
    api_name: shortText.optional(),
    path: z.string().min(1).max(2048),
    method: z.string().regex(/^[A-Za-z]{1,16}$/, 'must be an HTTP method name'),
    response_code: z.number().int().min(100).max(599),
    key_hash: idSchema,
    alias: shortText.optional(),
    org_id: z.string().max(128).optional(),
    timestamp: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time, such as 2024-05-01T10:00:00Z' }),
    request_time: millis,
    latency: z.object({ total: millis, upstream: millis }),
    iso_country: z.string().max(8).optional(),
  }))();
export type AnalyticsRecord = z.infer<typeof analyticsRecordSchema>;

export const analyticsIngestSchema = /* @__PURE__ */ (() =>
  z.object({
    records: z.array(analyticsRecordSchema).min(1).max(MAX_RECORDS, `at most ${MAX_RECORDS} records a call`),
    /**
     * Optional id of this batch, chosen by the gateway (a UUID, say) and sent again on every retry:
     * the batch is then counted exactly once, however often it is sent within 24 hours. The same
     * id with other records is 422.
     */
    batch_id: idSchema.optional().meta({
      description: 'Makes the call idempotent: a retry with the same batch_id and records is counted once (24 hours); other records under it are 422',
    }),
  }))();

/** Result of POST /gw/analytics: what was counted, and how many records named no known key. */
export const analyticsIngestResultSchema = /* @__PURE__ */ (() =>
  z.object({
    status: z.literal('ok'),
    action: z.literal('added'),
    stored: z.number().int(),
    unknown_keys: z.number().int(),
    counters: z.number().int(),
  }))();

// The patterns in meta state the ranges in the OpenAPI document, where the number they become has no schema.
const day = /* @__PURE__ */ (() =>
  z
    .string()
    .regex(/^\d{1,2}$/, 'must be a day number')
    .transform(Number)
    .pipe(z.number().int().min(1).max(31))
    .meta({ pattern: '^(0?[1-9]|[12][0-9]|3[01])$' }))();
const month = /* @__PURE__ */ (() =>
  z
    .string()
    .regex(/^\d{1,2}$/, 'must be a month number')
    .transform(Number)
    .pipe(z.number().int().min(1).max(12))
    .meta({ pattern: '^(0?[1-9]|1[0-2])$' }))();
const year = /* @__PURE__ */ (() =>
  z
    .string()
    .regex(/^\d{4}$/, 'must be a four-digit year')
    .transform(Number)
    .pipe(z.number().int().min(1970).max(9999))
    .meta({ pattern: '^(19[7-9][0-9]|[2-9][0-9]{3})$' }))();

/** Path of GET /api/activity/keys/...; whether the days exist and the range is sane is checked in the domain. */
export const keyActivityParamsSchema = /* @__PURE__ */ (() =>
  z.object({
    keyHash: idSchema,
    startDay: day,
    startMonth: month,
    startYear: year,
    EndDay: day,
    EndMonth: month,
    EndYear: year,
  }))();
export type KeyActivityParams = z.infer<typeof keyActivityParamsSchema>;
export const keyActivityQuerySchema = pageQuerySchema;

/** Spec "Key activity record". */
export const activityRowSchema = /* @__PURE__ */ (() =>
  z.object({
    hits: z.number().int(),
    success: z.number().int(),
    error: z.number().int(),
    last_hit: z.string(),
    latency: z.number(),
    upstream_latency: z.number(),
    request_time: z.number(),
    min_latency: z.number(),
    max_latency: z.number(),
    min_upstream_latency: z.number(),
    max_upstream_latency: z.number(),
    id: z.object({
      alias: z.string(),
      api_id: z.string(),
      api_name: z.string(),
      code: z.number().int(),
      day: z.number().int(),
      hour: z.number().int(),
      iso_country: z.string(),
      key: z.string(),
      month: z.number().int(),
      path: z.string(),
      queries: z.record(z.string(), z.unknown()),
      url: z.string(),
      year: z.number().int(),
    }),
  }))();
export type ActivityRow = z.infer<typeof activityRowSchema>;

export const keyActivitySchema = /* @__PURE__ */ (() =>
  z.object({
    data: z.array(activityRowSchema).nullable(),
    pages: z.number().int(),
    next_cursor: z.string().optional(),
  }))();

/** The date parts of the usage paths (GET /api/usage/apis|keys/{id}/...), as those of key activity. */
const usageParamsSchema = /* @__PURE__ */ (() => keyActivityParamsSchema.omit({ keyHash: true }))();
export type UsageParams = z.infer<typeof usageParamsSchema>;
export const apiUsageParamsSchema = /* @__PURE__ */ (() => usageParamsSchema.extend({ apiID: idSchema }))();
export const keyUsageParamsSchema = /* @__PURE__ */ (() => usageParamsSchema.extend({ keyHash: idSchema }))();
export const usageQuerySchema = /* @__PURE__ */ (() => z.object({ resolution: z.enum(['hour', 'day']).optional().default('day') }))();

/** One period of a usage chart. */
const usageRowSchema = /* @__PURE__ */ (() =>
  z.object({
    period: z.string(),
    hits: z.number(),
    success: z.number(),
    error: z.number(),
    latency_avg: z.number(),
    latency_max: z.number(),
    upstream_latency_avg: z.number(),
  }))();
export const usageSchema = /* @__PURE__ */ (() =>
  z.object({ resolution: z.enum(['hour', 'day']), from: z.string(), to: z.string(), data: z.array(usageRowSchema) }))();
