import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { assetsUpdate } from '../../shared/route-groups/assets';
import { replaceAsset } from '../../shared/services/assets';

/** PUT /api/assets/{assetID}: replace a template. */
export const handler = createHandler(assetsUpdate, async ({ org, params, body, ifMatch }) => {
  const { asset, version } = await replaceAsset(org, params.assetID, body, ifMatch);
  return reply.status('Asset updated', asset._id, { id: asset.id ?? asset._id, etag: version });
});
