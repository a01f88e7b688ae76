import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { apisUpdate } from '../../shared/route-groups/apis';
import { replaceClassicApi } from '../../shared/services/apis';

/** PUT /api/apis/{apiID}: replace an API of the caller's organisation with a classic definition. */
export const handler = createHandler(apisUpdate, async ({ org, params, body, ifMatch }) => {
  const api = await replaceClassicApi(params.apiID, body.api_definition, ifMatch, { org });
  return reply.status('API updated', null, { etag: api.version });
});
