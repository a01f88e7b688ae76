import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { analyticsRoutes as routes } from '../../shared/route-groups/analytics';
import { ingestRecords } from '../../shared/services/analytics';

/**
 * POST /gw/analytics: adds up to 1000 records to hourly key counters; records of unknown keys are
 * counted, not stored. With batch_id a retry is counted once; 422 for a batch_id reused with other records.
 */
export const handler = createHandler(routes.analyticsIngest, async ({ body }) =>
  ok({ status: 'ok', action: 'added', ...(await ingestRecords(body.records, body.batch_id)) }),
);
