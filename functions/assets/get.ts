import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { assetsGet } from '../../shared/route-groups/assets';
import { getAsset } from '../../shared/services/assets';

/** GET /api/assets/{assetID}: a template, by `_id` or custom `id`. */
export const handler = createHandler(assetsGet, async ({ org, params }) => {
  const { asset, version } = await getAsset(org, params.assetID);
  return reply.ok(asset, { etag: version });
});
