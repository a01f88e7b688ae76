import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { pageRequest } from '../../shared/domain/paging';
import { usersRoutes as routes } from '../../shared/route-groups/users';
import { searchUsers } from '../../shared/store/users';

/** GET /api/users/search (spec 15): q is a case-insensitive substring of the e-mail; q missing is 400. */
export const handler = createHandler(routes.usersSearch, async ({ org, query }) =>
  ok(await searchUsers(org, query.q, pageRequest(query))),
);
