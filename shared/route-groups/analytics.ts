/** Analytics ingestion and key activity. Part of the route table (shared/routes.ts). */
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import {
  analyticsIngestResultSchema,
  analyticsIngestSchema,
  apiUsageParamsSchema,
  keyActivityParamsSchema,
  keyActivityQuerySchema,
  keyActivitySchema,
  keyUsageParamsSchema,
  usageQuerySchema,
  usageSchema,
} from '../schemas/analytics';

const usageRange =
  'Whole days start..end, UTC; resolution=hour (at most 31 days) or day (the default, at most 366 days). One row per period of the range, ' +
  'in order, zero-filled: hits, success (codes below 400), error, hit-weighted average latencies and the largest latency.';
const usage400 =
  'A date that does not exist, an end before the start, a range longer than the resolution allows (hour: 31 days, day: 366), or another resolution';

export const analyticsIngest = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/gw/analytics',
    group: 'gateway',
    access: 'write',
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'],
    tableEntities: ['analytics_batch', 'api_usage', 'key', 'key_activity', 'offboarding'],
    summary:
      'Report request records (at most 1000 a call) into hourly per-key counters. Answers {status:"ok",action:"added",stored,unknown_keys,counters}: ' +
      'records whose key_hash names no key (or a key of another org than their org_id) are counted in unknown_keys, not stored. ' +
      'With batch_id a retry is counted once and answers the same',
    description:
      'Records are added to hourly per-key counters by atomic updates. success counts codes below 400, error 400 and above. ' +
      'Timestamps are ISO 8601 (UTC offset allowed).',
    success: 'Records counted: stored, unknown_keys and counters written',
    statuses: { 422: 'The batch_id came before with other records' },
    body: analyticsIngestSchema,
    result: analyticsIngestResultSchema,
  }))();

export const keyActivity = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/activity/keys/{keyHash}/{startDay}/{startMonth}/{startYear}/{EndDay}/{EndMonth}/{EndYear}',
    group: 'dashboard',
    access: 'read',
    permission: 'analytics',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['access_key', 'key', 'key_activity'],
    summary: 'Key analytics: one row per (API, path) over whole days start..end (at most 366), busiest first, paged',
    description: 'The days must exist and the end must not be before the start (400); whole days start..end, at most 366.',
    success: 'A page of activity rows',
    statuses: { 400: 'A date that does not exist, an end before the start, or more than 366 days', 404: "No such key in the caller's organisation" },
    params: keyActivityParamsSchema,
    query: keyActivityQuerySchema,
    result: keyActivitySchema,
  }))();

export const apiUsage = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/usage/apis/{apiID}/{startDay}/{startMonth}/{startYear}/{EndDay}/{EndMonth}/{EndYear}',
    group: 'dashboard',
    access: 'read',
    permission: 'analytics',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['access_key', 'api', 'api_db_id', 'api_usage'],
    summary: "Usage of an API of the caller's organisation over time: requests, successes, errors and latency per hour or day",
    description:
      `${usageRange} From the records the organisation's keys reported (POST /gw/analytics), summed per API and hour at ingestion. ` +
      "The path holds the api_id or the database id; another organisation's API is 404 like an unknown one.",
    success: 'One row per period of the range',
    statuses: { 400: usage400, 404: "No such API in the caller's organisation" },
    params: apiUsageParamsSchema,
    query: usageQuerySchema,
    result: usageSchema,
  }))();

export const keyUsage = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/usage/keys/{keyHash}/{startDay}/{startMonth}/{startYear}/{EndDay}/{EndMonth}/{EndYear}',
    group: 'dashboard',
    access: 'read',
    permission: 'analytics',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['access_key', 'key', 'key_activity'],
    summary: "Usage of a key of the caller's organisation (by hash) over time: requests, successes, errors and latency per hour or day",
    description: `${usageRange} From the key's hourly counters (all its APIs and paths). Another organisation's key is 404 like an unknown one.`,
    success: 'One row per period of the range',
    statuses: { 400: usage400, 404: "No such key in the caller's organisation" },
    params: keyUsageParamsSchema,
    query: usageQuerySchema,
    result: usageSchema,
  }))();

export const analyticsRoutes = /* @__PURE__ */ (() =>
  routeGroup('analytics', {
    analyticsIngest,
    keyActivity,
    apiUsage,
    keyUsage,
  }))() satisfies Record<string, RouteDef>;
