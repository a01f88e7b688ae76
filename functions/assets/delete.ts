import { createHandler } from '../../shared/http/create-handler';
import { statusOk } from '../../shared/http/envelopes';
import { assetsRoutes as routes } from '../../shared/route-groups/assets';
import { deleteAsset } from '../../shared/services/assets';

/** DELETE /api/assets/{assetID}: removes the template and its custom-id marker; 404 unknown, 412 stale If-Match. */
export const handler = createHandler(routes.assetsDelete, async ({ org, params, ifMatch }) => {
  const asset = await deleteAsset(org, params.assetID, ifMatch);
  return statusOk('Asset deleted', asset._id);
});
