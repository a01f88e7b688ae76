import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { assetsList } from '../../shared/route-groups/assets';
import { listAssets } from '../../shared/services/assets';

/** GET /api/assets: the caller's organisation's templates in creation order, paged. */
export const handler = createHandler(assetsList, async ({ org, query }) => reply.ok(await listAssets(org, query)));
