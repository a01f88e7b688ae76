import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { policiesRoutes as routes } from '../../shared/route-groups/policies';
import { getPolicy } from '../../shared/services/policies';

/** GET /gw/policies/{policyID}: a policy. */
export const handler = createHandler(routes.policiesGet, async ({ params }) => {
  const { policy, version } = await getPolicy(params.policyID);
  return reply.ok(policy, { etag: version });
});
