import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { listingEntry } from '../../shared/domain/api-records';
import { pageRequest } from '../../shared/domain/paging';
import { apisRoutes as routes } from '../../shared/route-groups/apis';
import { listApis } from '../../shared/store/apis';

/** GET /api/apis (spec 4): the caller's organisation's APIs, paged, six sort orders. */
export const handler = createHandler(routes.apisList, async ({ org, query }) => {
  const page = await listApis(org, query.sort, pageRequest(query));
  return ok({ apis: page.apis.map(listingEntry), pages: page.pages, next_cursor: page.next_cursor });
});
