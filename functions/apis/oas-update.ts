import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { oasUpdate } from '../../shared/route-groups/apis';
import { replaceOasApi } from '../../shared/services/apis';

/** PUT /gw/apis/oas/{apiID}: replace an OAS API, with base_api_id linking it as a version of that base. */
export const handler = createHandler(oasUpdate, async ({ params, body, query, ifMatch }) => {
  await replaceOasApi(params.apiID, body, query, ifMatch);
  return reply.gateway('modified', params.apiID);
});
