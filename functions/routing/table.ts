import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { routingTable as route } from '../../shared/route-groups/routing';
import { routingTable } from '../../shared/services/routing';

/** GET /gw/routing: the routing table of every stored definition. */
export const handler = createHandler(route, async () => reply.ok(await routingTable()));
