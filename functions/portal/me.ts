import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalRoutes as routes } from '../../shared/route-groups/portal';
import { signedIn } from '../../shared/services/developers';

/** GET /portal/{orgID}/developer: the signed-in developer. */
export const handler = createHandler(routes.portalMe, async ({ developer }) => reply.ok(await signedIn(developer)));
