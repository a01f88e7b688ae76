import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { oasDashboardUpdate } from '../../shared/route-groups/apis';
import { replaceOasApi } from '../../shared/services/apis';

/** PUT /api/apis/oas/{apiID}: replace an OAS API of the caller's organisation, with base_api_id linking it as a version. */
export const handler = createHandler(oasDashboardUpdate, async ({ org, params, body, query, ifMatch }) => {
  const api = await replaceOasApi(params.apiID, body, query, ifMatch, { org });
  return reply.status('API updated', null, { etag: api.version });
});
