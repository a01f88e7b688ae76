import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { apisRoutes as routes } from '../../shared/route-groups/apis';
import { getOasApi } from '../../shared/services/api-reads';

/** GET /gw/apis/oas/{apiID}: mode=public drops only x-gw-api-gateway; 404 for classic APIs too. */
export const handler = createHandler(routes.oasGet, async ({ params, query }) => {
  const { document, version } = await getOasApi(params.apiID, query.mode);
  return ok(document, { version });
});
