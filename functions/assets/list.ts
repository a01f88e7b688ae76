import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { pageRequest } from '../../shared/domain/paging';
import { importsRoutes as routes } from '../../shared/route-groups/imports';
import { listAssets } from '../../shared/store/assets';

/** GET /api/assets: the caller's organisation's templates in creation order, paged. */
export const handler = createHandler(routes.assetsList, async ({ org, query }) => ok(await listAssets(org, pageRequest(query))));
