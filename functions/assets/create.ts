import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { assetsCreate } from '../../shared/route-groups/assets';
import { createAsset } from '../../shared/services/assets';

/** POST /api/assets: create a template of the caller's organisation. */
export const handler = createHandler(assetsCreate, async ({ org, body }) => {
  const asset = await createAsset(org, body);
  return reply.status('Asset created', asset._id, { id: asset.id ?? asset._id });
});
