import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { recordFromOas } from '../../shared/domain/api-records';
import { normaliseOasWriteBody } from '../../shared/domain/oas-document';
import { apisRoutes as routes } from '../../shared/route-groups/apis';
import { createApiWithVersion } from '../../shared/store/api-versions';

/**
 * POST /gw/apis/oas (spec 6): full document with x-gw-api-gateway, or the bare extension; 409 taken
 * id. With base_api_id the API is created as a version of that base (422 unknown base or missing
 * new_version_name), both written in one transaction.
 */
export const handler = createHandler(routes.oasCreate, async ({ body, query }) => {
  const api = await createApiWithVersion(recordFromOas(normaliseOasWriteBody(body), new Date().toISOString()), query);
  return gatewayOk('added', api.api_id);
});
