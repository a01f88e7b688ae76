import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { oasGet } from '../../shared/route-groups/apis';
import { getOasApi } from '../../shared/services/api-reads';

/** GET /gw/apis/oas/{apiID}: an OAS API's document; mode=public drops only x-gw-api-gateway. */
export const handler = createHandler(oasGet, async ({ params, query }) => {
  const { document, version } = await getOasApi(params.apiID, query.mode);
  return reply.ok(document, { etag: version });
});
