import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { assetsRoutes as routes } from '../../shared/route-groups/assets';
import { getAsset } from '../../shared/services/assets';

/** GET /api/assets/{assetID}: by `_id` or custom `id`; another organisation's is 404. */
export const handler = createHandler(routes.assetsGet, async ({ org, params }) => {
  const { asset, version } = await getAsset(org, params.assetID);
  return ok(asset, { version });
});
