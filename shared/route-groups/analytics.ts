/** Analytics ingestion and key activity. Part of the route table (shared/routes.ts). */
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import { analyticsIngestResultSchema, analyticsIngestSchema, keyActivityParamsSchema, keyActivityQuerySchema, keyActivitySchema } from '../schemas/analytics';

export const analyticsRoutes = routeGroup('analytics', {
  analyticsIngest: route({
    method: 'POST', path: '/gw/analytics', group: 'gateway', access: 'write', tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'],
    summary:
      'Report request records (at most 1000 a call) into hourly per-key counters. Answers {status:"ok",action:"added",stored,unknown_keys,counters}: ' +
      'records whose key_hash names no key (or a key of another org than their org_id) are counted in unknown_keys, not stored. ' +
      'With batch_id a retry is counted once and answers the same',
    description:
      'Records are added to hourly per-key counters by atomic updates. success counts codes below 400, error 400 and above. ' +
      'Timestamps are ISO 8601 (UTC offset allowed).',
    success: 'Records counted: stored, unknown_keys and counters written',
    statuses: { 422: 'The batch_id came before with other records' },
    body: analyticsIngestSchema, result: analyticsIngestResultSchema,
  }),
  keyActivity: route({
    method: 'GET', path: '/api/activity/keys/{keyHash}/{startDay}/{startMonth}/{startYear}/{EndDay}/{EndMonth}/{EndYear}', group: 'dashboard',
    access: 'read', permission: 'analytics', tableActions: ['GetItem', 'Query'],
    summary: 'Key analytics: one row per (API, path) over whole days start..end (at most 366), busiest first, paged',
    description: 'The days must exist and the end must not be before the start (400); whole days start..end, at most 366.',
    success: 'A page of activity rows',
    statuses: { 400: 'A date that does not exist, an end before the start, or more than 366 days', 404: "No such key in the caller's organisation" },
    params: keyActivityParamsSchema, query: keyActivityQuerySchema, result: keyActivitySchema,
  }),
}) satisfies Record<string, RouteDef>;
