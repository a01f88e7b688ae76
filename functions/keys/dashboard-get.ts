import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { keysDashboardGet } from '../../shared/route-groups/keys';
import { getOrgKey } from '../../shared/services/keys';

/** GET /api/keys/{keyHash}: a key of the caller's organisation by its hash, with its live quota. */
export const handler = createHandler(keysDashboardGet, async ({ org, params }) => {
  const { result, version } = await getOrgKey(org, params.keyHash);
  return reply.ok(result, { etag: version });
});
