import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { NotFound } from '../../shared/errors';
import { importsRoutes as routes } from '../../shared/route-groups/imports';
import { getAsset } from '../../shared/store/assets';

/** GET /api/assets/{assetID} (spec 1): by `_id` or custom `id`; another organisation's is 404. */
export const handler = createHandler(routes.assetsGet, async ({ org, params }) => {
  const found = await getAsset(org, params.assetID);
  if (!found) throw new NotFound(`Asset ${params.assetID} not found`);
  return ok(found.asset, { version: found.version });
});
