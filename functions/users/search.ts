import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { usersSearch } from '../../shared/route-groups/users';
import { searchOrgUsers } from '../../shared/services/users';

/** GET /api/users/search: the caller's organisation's users whose e-mail holds q, ignoring case. */
export const handler = createHandler(usersSearch, async ({ org, query }) => reply.ok(await searchOrgUsers(org, query)));
