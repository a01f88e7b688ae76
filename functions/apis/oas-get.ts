import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { NotFound } from '../../shared/errors';
import { publicView } from '../../shared/domain/oas-document';
import { apisRoutes as routes } from '../../shared/route-groups/apis';
import { getApi } from '../../shared/store/apis';

/** GET /gw/apis/oas/{apiID} (spec 13): mode=public drops only x-gw-api-gateway; 404 for classic APIs too. */
export const handler = createHandler(routes.oasGet, async ({ params, query }) => {
  const api = await getApi(params.apiID);
  if (!api?.oas) throw new NotFound(`OAS API ${params.apiID} not found`);
  return ok(query.mode === 'public' ? publicView(api.oas) : api.oas, { version: api.version });
});
