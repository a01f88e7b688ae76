import { createHandler } from '../../shared/http/create-handler';
import { ok, statusOk } from '../../shared/http/envelopes';
import { importsRoutes as routes } from '../../shared/route-groups/imports';
import { replaceAsset } from '../../shared/store/assets';

/** PUT /api/assets/{assetID}: replaces a template; 404 unknown, 409 id taken, 412 stale If-Match, 422 kind. */
export const handler = createHandler(routes.assetsUpdate, async ({ org, params, body, ifMatch }) => {
  const { asset, version } = await replaceAsset(org, params.assetID, body, ifMatch);
  const reply = statusOk('Asset updated', asset._id, asset.id ?? asset._id);
  return { ...reply, headers: ok(null, { version }).headers };
});
