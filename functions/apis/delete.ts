import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { routes } from '../../shared/routes';
import { deleteApi } from '../../shared/store/apis';

/** DELETE /gw/apis/{apiID}: removes the API and its parts; 404 unknown, 412 stale If-Match. */
export const handler = createHandler(routes.apisDelete, async ({ params, ifMatch }) => {
  await deleteApi(params.apiID, ifMatch);
  return gatewayOk('deleted', params.apiID);
});
