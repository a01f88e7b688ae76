import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { oauthRoutes as routes } from '../../shared/route-groups/oauth';
import { deleteClient } from '../../shared/services/oauth-clients';

/** DELETE /gw/oauth/clients/{apiID}/{clientID}: 404 unknown API or client (or another API's), 412 stale If-Match. */
export const handler = createHandler(routes.oauthDelete, async ({ params, ifMatch }) => {
  await deleteClient(params.apiID, params.clientID, ifMatch);
  return gatewayOk('deleted', params.clientID);
});
