/** Analytics ingestion and key activity. Part of the route table (shared/routes.ts). */
import { route } from '../route-builders';
import type { RouteDef } from '../route-def';
import { analyticsIngestResultSchema, analyticsIngestSchema, keyActivityParamsSchema, keyActivityQuerySchema, keyActivitySchema } from '../schemas/analytics';

export const analyticsRoutes = {
  analyticsIngest: route({
    method: 'POST', path: '/gw/analytics', group: 'gateway', entry: 'functions/analytics/ingest.ts', access: 'write',
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'],
    summary:
      'Report request records (at most 1000 a call) into hourly per-key counters. Answers {status:"ok",action:"added",stored,unknown_keys,counters}: ' +
      'records whose key_hash names no key (or a key of another org than their org_id) are counted in unknown_keys, not stored. ' +
      'With batch_id a retry is counted once and answers the same; 422 when the batch_id came with other records',
    body: analyticsIngestSchema, result: analyticsIngestResultSchema,
  }),
  keyActivity: route({
    method: 'GET', path: '/api/activity/keys/{keyHash}/{startDay}/{startMonth}/{startYear}/{EndDay}/{EndMonth}/{EndYear}', group: 'dashboard',
    entry: 'functions/analytics/key-activity.ts', access: 'read', permission: 'analytics', tableActions: ['GetItem', 'Query'],
    summary:
      'Key analytics: one row per (API, path) over whole days start..end (at most 366), busiest first, paged; ' +
      '400 for a bad or reversed date, 404 for a key of another organisation',
    params: keyActivityParamsSchema, query: keyActivityQuerySchema, result: keyActivitySchema,
  }),
} satisfies Record<string, RouteDef>;
