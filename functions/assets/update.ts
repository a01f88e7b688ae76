import { createHandler } from '../../shared/http/create-handler';
import { etagOf, statusOk } from '../../shared/http/envelopes';
import { assetsRoutes as routes } from '../../shared/route-groups/assets';
import { replaceAsset } from '../../shared/services/assets';

/** PUT /api/assets/{assetID}: replaces a template; 404 unknown, 409 id taken, 412 stale If-Match, 422 kind. */
export const handler = createHandler(routes.assetsUpdate, async ({ org, params, body, ifMatch }) => {
  const { asset, version } = await replaceAsset(org, params.assetID, body, ifMatch);
  return { ...statusOk('Asset updated', asset._id, asset.id ?? asset._id), headers: etagOf(version) };
});
