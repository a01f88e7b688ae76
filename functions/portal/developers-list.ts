import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalDevelopersList } from '../../shared/route-groups/portal';
import { listDevelopers } from '../../shared/services/developers';

/** GET /api/portal/developers: the portal's developers, paged. */
export const handler = createHandler(portalDevelopersList, async ({ org, query }) => reply.ok(await listDevelopers(org, query)));
