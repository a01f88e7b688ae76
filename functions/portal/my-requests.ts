import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalMyRequests } from '../../shared/route-groups/portal';
import { myRequests } from '../../shared/services/key-requests';

/** GET /portal/{orgID}/key-requests: the developer's own requests. */
export const handler = createHandler(portalMyRequests, async ({ developer }) => reply.ok(await myRequests(developer)));
