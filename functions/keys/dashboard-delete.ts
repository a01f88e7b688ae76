import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { keysDashboardDelete } from '../../shared/route-groups/keys';
import { deleteOrgKey } from '../../shared/services/keys';

/** DELETE /api/keys/{keyHash}: a key of the caller's organisation by its hash, with its live quotas. */
export const handler = createHandler(keysDashboardDelete, async ({ org, params, ifMatch }) => {
  await deleteOrgKey(org, params.keyHash, ifMatch);
  return reply.status('Key deleted', null);
});
