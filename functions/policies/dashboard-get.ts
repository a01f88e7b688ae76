import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { policiesDashboardGet } from '../../shared/route-groups/policies';
import { getOrgPolicy } from '../../shared/services/policies';

/** GET /api/portal/policies/{policyID}: a policy of the caller's organisation. */
export const handler = createHandler(policiesDashboardGet, async ({ org, params }) => {
  const { policy, version } = await getOrgPolicy(org, params.policyID);
  return reply.ok(policy, { etag: version });
});
