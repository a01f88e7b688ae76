import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { oauthDashboardUpdate } from '../../shared/route-groups/oauth';
import { replaceClient } from '../../shared/services/oauth-clients';

/** PUT /api/apis/oauth/{apiID}/{clientID}: replace the editable members of an OAuth client of the caller's organisation. */
export const handler = createHandler(oauthDashboardUpdate, async ({ org, params, body, ifMatch }) => {
  const { client, version } = await replaceClient(params.apiID, params.clientID, body, ifMatch, org);
  return reply.ok(client, { etag: version });
});
