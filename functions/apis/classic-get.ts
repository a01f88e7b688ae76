import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { classicGet } from '../../shared/route-groups/apis';
import { getClassicApi } from '../../shared/services/api-reads';

/** GET /gw/apis/{apiID}: the classic form of any API (OAS ones converted, with is_oas true). */
export const handler = createHandler(classicGet, async ({ params }) => {
  const api = await getClassicApi(params.apiID);
  return reply.ok(api.classic, { etag: api.version, headers: api.base_api_id ? { 'x-gw-base-api-id': api.base_api_id } : {} });
});
