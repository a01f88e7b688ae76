import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { analyticsIngest } from '../../shared/route-groups/analytics';
import { ingestRecords } from '../../shared/services/analytics';

/** POST /gw/analytics: a gateway reports request records, added to hourly per-key counters. */
export const handler = createHandler(analyticsIngest, async ({ body }) =>
  reply.ok({ status: 'ok', action: 'added', ...(await ingestRecords(body.records, body.batch_id)) }),
);
