import { createHandler } from '../../shared/http/create-handler';
import { statusOk } from '../../shared/http/envelopes';
import { assetsRoutes as routes } from '../../shared/route-groups/assets';
import { createAsset } from '../../shared/services/assets';

/** POST /api/assets: Meta is the new `_id`, ID the custom id (else `_id`); 409 id taken, 422 kind. */
export const handler = createHandler(routes.assetsCreate, async ({ org, body }) => {
  const asset = await createAsset(org, body);
  return statusOk('Asset created', asset._id, asset.id ?? asset._id);
});
