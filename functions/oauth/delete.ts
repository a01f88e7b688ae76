import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { oauthDelete } from '../../shared/route-groups/oauth';
import { deleteClient } from '../../shared/services/oauth-clients';

/** DELETE /gw/oauth/clients/{apiID}/{clientID}: remove an OAuth client of the API. */
export const handler = createHandler(oauthDelete, async ({ params, ifMatch }) => {
  await deleteClient(params.apiID, params.clientID, ifMatch);
  return reply.gateway('deleted', params.clientID);
});
