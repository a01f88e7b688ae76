import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { oauthUpdate } from '../../shared/route-groups/oauth';
import { replaceClient } from '../../shared/services/oauth-clients';

/** PUT /gw/oauth/clients/{apiID}/{clientID}: replace an OAuth client's editable members. */
export const handler = createHandler(oauthUpdate, async ({ params, body, ifMatch }) => {
  const { client, version } = await replaceClient(params.apiID, params.clientID, body, ifMatch);
  return reply.ok(client, { etag: version });
});
