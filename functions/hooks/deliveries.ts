import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { hooksDeliveries } from '../../shared/route-groups/hooks';
import { listHookDeliveries } from '../../shared/services/delivery-log';

/** GET /api/hooks/{hookID}/deliveries: a webhook's delivery log, newest first, paged. */
export const handler = createHandler(hooksDeliveries, async ({ org, params, query }) => reply.ok(await listHookDeliveries(org, params.hookID, query)));
