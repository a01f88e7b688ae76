import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { apisRoutes as routes } from '../../shared/route-groups/apis';
import { replaceOasApi } from '../../shared/services/apis';

/**
 * PUT /gw/apis/oas/{apiID}: replaces; 400 when the body names another id; 404 unknown. With
 * base_api_id it links the API as a version of that base, in the same transaction.
 */
export const handler = createHandler(routes.oasUpdate, async ({ params, body, query, ifMatch }) => {
  await replaceOasApi(params.apiID, body, query, ifMatch);
  return gatewayOk('modified', params.apiID);
});
