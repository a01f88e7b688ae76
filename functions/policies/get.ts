import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { policiesGet } from '../../shared/route-groups/policies';
import { getPolicy } from '../../shared/services/policies';

/** GET /gw/policies/{policyID}: a policy. */
export const handler = createHandler(policiesGet, async ({ params }) => {
  const { policy, version } = await getPolicy(params.policyID);
  return reply.ok(policy, { etag: version });
});
