import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { oauthRoutes as routes } from '../../shared/route-groups/oauth';
import { updateClient } from '../../shared/services/oauth-clients';

/** PUT /gw/oauth/clients/{apiID}/{clientID}: 404 unknown API or client, 422 unknown policy, 400 policy lacks the API, 412 stale If-Match. */
export const handler = createHandler(routes.oauthUpdate, async ({ params, body, ifMatch }) => {
  const { client, version } = await updateClient(params.apiID, params.clientID, body, ifMatch);
  return ok(client, { version });
});
