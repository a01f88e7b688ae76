import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { apisRoutes as routes } from '../../shared/route-groups/apis';
import { deleteApiWithVersions } from '../../shared/store/api-versions';

/**
 * DELETE /gw/apis/{apiID}: removes the API and its parts; a version also leaves its base's list.
 * 404 unknown, 409 a base that still has versions, 412 stale If-Match.
 */
export const handler = createHandler(routes.apisDelete, async ({ params, ifMatch }) => {
  await deleteApiWithVersions(params.apiID, ifMatch);
  return gatewayOk('deleted', params.apiID);
});
