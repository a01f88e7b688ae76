import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { keysDashboardUpdate } from '../../shared/route-groups/keys';
import { replaceOrgKey } from '../../shared/services/keys';

/** PUT /api/keys/{keyHash}: replace a key of the caller's organisation by its hash; reset_quota=1 resets its live quota. */
export const handler = createHandler(keysDashboardUpdate, async ({ org, params, query, body, ifMatch }) => {
  const { result, version } = await replaceOrgKey(org, params.keyHash, body, query.reset_quota === true, ifMatch);
  return reply.ok(result, { etag: version });
});
