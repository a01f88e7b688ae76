import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { oauthRoutes as routes } from '../../shared/route-groups/oauth';
import { listClients } from '../../shared/services/oauth-clients';

/** GET /gw/oauth/clients/{apiID}: the API's clients without secrets; 404 unknown API. */
export const handler = createHandler(routes.oauthList, async ({ params }) => ok(await listClients(params.apiID)));
