import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { routingRoutes as routes } from '../../shared/route-groups/routing';
import { routingVersion } from '../../shared/services/routing';

/** GET /gw/routing/version: what a gateway following the routing table polls. */
export const handler = createHandler(routes.routingVersion, async () => reply.ok(await routingVersion()));
