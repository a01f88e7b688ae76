import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { policiesRoutes as routes } from '../../shared/route-groups/policies';
import { getPolicy } from '../../shared/services/policies';

/** GET /gw/policies/{policyID}: the policy, its version as ETag; 404 unknown. */
export const handler = createHandler(routes.policiesGet, async ({ params }) => {
  const { policy, version } = await getPolicy(params.policyID);
  return ok(policy, { version });
});
