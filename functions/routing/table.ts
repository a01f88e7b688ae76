import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { routingRoutes as routes } from '../../shared/route-groups/routing';
import { routingTable } from '../../shared/services/routing';

/** GET /gw/routing: the routing table of every stored definition. */
export const handler = createHandler(routes.routingTable, async () => reply.ok(await routingTable()));
