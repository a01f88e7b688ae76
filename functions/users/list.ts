import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { usersList } from '../../shared/route-groups/users';
import { listOrgUsers } from '../../shared/services/users';

/** GET /api/users: the caller's organisation's users; p < 0 answers all. */
export const handler = createHandler(usersList, async ({ org, query }) => reply.ok(await listOrgUsers(org, query)));
