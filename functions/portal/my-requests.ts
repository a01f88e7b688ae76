import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalRoutes as routes } from '../../shared/route-groups/portal';
import { myRequests } from '../../shared/services/key-requests';

/** GET /portal/{orgID}/key-requests: the developer's own requests. */
export const handler = createHandler(routes.portalMyRequests, async ({ developer }) => reply.ok(await myRequests(developer)));
