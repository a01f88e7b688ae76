import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { oauthRoutes as routes } from '../../shared/route-groups/oauth';
import { updateClient } from '../../shared/store/oauth-clients';

/** PUT /gw/oauth/clients/{apiID}/{keyName} (spec 2): 404 unknown API or client, 422 unknown policy, 400 policy lacks the API, 412 stale If-Match. */
export const handler = createHandler(routes.oauthUpdate, async ({ params, body, ifMatch }) => {
  const { client, version } = await updateClient(params.apiID, params.keyName, body, ifMatch);
  return ok(client, { version });
});
