import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { NotFound } from '../../shared/errors';
import { apisRoutes as routes } from '../../shared/route-groups/apis';
import { getApi } from '../../shared/store/apis';

/** GET /gw/apis/{apiID} (spec 8): the classic form of any API (OAS ones with is_oas true). */
export const handler = createHandler(routes.classicGet, async ({ params }) => {
  const api = await getApi(params.apiID);
  if (!api) throw new NotFound(`API ${params.apiID} not found`);
  return ok(api.classic, {
    version: api.version,
    headers: api.base_api_id ? { 'x-gw-base-api-id': api.base_api_id } : {},
  });
});
