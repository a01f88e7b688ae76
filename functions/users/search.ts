import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { usersRoutes as routes } from '../../shared/route-groups/users';
import { searchOrgUsers } from '../../shared/services/users';

/** GET /api/users/search: q is a case-insensitive substring of the e-mail; q missing is 400. */
export const handler = createHandler(routes.usersSearch, async ({ org, query }) => ok(await searchOrgUsers(org, query)));
