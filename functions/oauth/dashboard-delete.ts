import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { oauthDashboardDelete } from '../../shared/route-groups/oauth';
import { deleteClient } from '../../shared/services/oauth-clients';

/** DELETE /api/apis/oauth/{apiID}/{clientID}: an OAuth client of an API of the caller's organisation. */
export const handler = createHandler(oauthDashboardDelete, async ({ org, params, ifMatch }) => {
  await deleteClient(params.apiID, params.clientID, ifMatch, org);
  return reply.status('OAuth client deleted', null);
});
