import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { usersRoutes as routes } from '../../shared/route-groups/users';
import { listOrgUsers } from '../../shared/services/users';

/** GET /api/users: the caller's organisation only; p < 0 returns all. */
export const handler = createHandler(routes.usersList, async ({ org, query }) => ok(await listOrgUsers(org, query)));
