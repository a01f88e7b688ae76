import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { usersMe } from '../../shared/route-groups/users';
import { getMe } from '../../shared/services/users';

/** GET /api/users/me: the caller with its effective permissions; any active user, whatever its permissions. */
export const handler = createHandler(usersMe, async ({ org, principal }) =>
  reply.ok(await getMe(org, principal.group === 'dashboard' ? principal.userId : '')),
);
