import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { apisRoutes as routes } from '../../shared/route-groups/apis';
import { deleteApi } from '../../shared/services/apis';

/**
 * DELETE /gw/apis/{apiID}: removes the API, its parts and its OAuth clients; a version also leaves
 * its base's list. 404 unknown, 409 a base that still has versions, 412 stale If-Match.
 */
export const handler = createHandler(routes.apisDelete, async ({ params, ifMatch }) => {
  await deleteApi(params.apiID, ifMatch);
  return gatewayOk('deleted', params.apiID);
});
