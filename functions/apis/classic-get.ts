import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { apisRoutes as routes } from '../../shared/route-groups/apis';
import { getClassicApi } from '../../shared/services/api-reads';

/** GET /gw/apis/{apiID}: the classic form of any API (OAS ones with is_oas true); 404 unknown. */
export const handler = createHandler(routes.classicGet, async ({ params }) => {
  const api = await getClassicApi(params.apiID);
  return ok(api.classic, { version: api.version, headers: api.base_api_id ? { 'x-gw-base-api-id': api.base_api_id } : {} });
});
