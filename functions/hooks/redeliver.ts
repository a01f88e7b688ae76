import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { hooksRedeliver } from '../../shared/route-groups/hooks';
import { redeliver } from '../../shared/services/delivery-log';

/** POST /api/hooks/{hookID}/deliveries/{deliveryID}/redeliver: one more attempt of a delivery, due now. */
export const handler = createHandler(hooksRedeliver, async ({ org, params }) => {
  await redeliver(org, params.hookID, params.deliveryID);
  return reply.status('Delivery queued', params.deliveryID);
});
