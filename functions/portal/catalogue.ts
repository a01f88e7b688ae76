import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalCatalogue } from '../../shared/route-groups/portal';
import { publicCatalogue } from '../../shared/services/portal';

/** GET /portal/{orgID}/catalogue: the portal's published APIs and their plans, for anyone. */
export const handler = createHandler(portalCatalogue, async ({ params }) => reply.ok(await publicCatalogue(params.orgID)));
