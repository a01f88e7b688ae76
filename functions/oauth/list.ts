import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { oauthRoutes as routes } from '../../shared/route-groups/oauth';
import { listClients } from '../../shared/services/oauth-clients';

/** GET /gw/oauth/clients/{apiID}: the API's OAuth clients, without secrets. */
export const handler = createHandler(routes.oauthList, async ({ params }) => reply.ok(await listClients(params.apiID)));
