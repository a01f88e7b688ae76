import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { assetsDelete } from '../../shared/route-groups/assets';
import { deleteAsset } from '../../shared/services/assets';

/** DELETE /api/assets/{assetID}: remove a template and its custom id. */
export const handler = createHandler(assetsDelete, async ({ org, params, ifMatch }) => {
  const asset = await deleteAsset(org, params.assetID, ifMatch);
  return reply.status('Asset deleted', asset._id);
});
