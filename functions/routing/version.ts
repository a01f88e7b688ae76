import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { routingVersion as route } from '../../shared/route-groups/routing';
import { routingVersion } from '../../shared/services/routing';

/** GET /gw/routing/version: what a gateway following the routing table polls. */
export const handler = createHandler(route, async () => reply.ok(await routingVersion()));
