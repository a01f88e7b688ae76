import { createHandler } from '../../shared/http/create-handler';
import { hooksRoutes as routes } from '../../shared/route-groups/hooks';
import { listHookDeliveries } from '../../shared/services/deliveries';

/** GET /api/hooks/{hookID}/deliveries: the hook's delivery log, newest first, paged; 404 unknown. */
export const handler = createHandler(routes.hooksDeliveries, async ({ org, params, query }) => ({
  body: await listHookDeliveries(org, params.hookID, query),
}));
