import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalKeyRequestsList } from '../../shared/route-groups/portal';
import { listKeyRequests } from '../../shared/services/key-requests';

/** GET /api/portal/key-requests: the organisation's requests of one state, oldest first. */
export const handler = createHandler(portalKeyRequestsList, async ({ org, query }) => reply.ok(await listKeyRequests(org, query)));
