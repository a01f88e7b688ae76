import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { deleteDashboardKey } from '../../shared/services/keys';

/** DELETE /api/keys/{keyID}: a key of the caller's organisation by its hash, with its live quotas. */
export const handler = createHandler(routes.keysDashboardDelete, async ({ org, params, ifMatch }) => {
  await deleteDashboardKey(org, params.keyID, ifMatch);
  return reply.status('Key deleted', null);
});
