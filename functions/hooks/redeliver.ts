import { createHandler } from '../../shared/http/create-handler';
import { statusOk } from '../../shared/http/envelopes';
import { hooksRoutes as routes } from '../../shared/route-groups/hooks';
import { redeliver } from '../../shared/services/deliveries';

/** POST /api/hooks/{hookID}/deliveries/{deliveryID}/redeliver: one more attempt, due now; 404 unknown. */
export const handler = createHandler(routes.hooksRedeliver, async ({ org, params }) => {
  await redeliver(org, params.hookID, params.deliveryID);
  return statusOk('Delivery queued', params.deliveryID);
});
