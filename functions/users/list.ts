import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { pageRequest } from '../../shared/domain/paging';
import { usersRoutes as routes } from '../../shared/route-groups/users';
import { listUsers } from '../../shared/store/users';

/** GET /api/users (spec 5): the caller's organisation only; p < 0 returns all. */
export const handler = createHandler(routes.usersList, async ({ org, query }) =>
  ok(await listUsers(org, pageRequest(query))),
);
