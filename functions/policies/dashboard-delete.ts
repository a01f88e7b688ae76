import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { policiesDashboardDelete } from '../../shared/route-groups/policies';
import { deleteOrgPolicy } from '../../shared/services/policies';

/** DELETE /api/portal/policies/{policyID}: a policy of the caller's organisation. */
export const handler = createHandler(policiesDashboardDelete, async ({ org, params, ifMatch }) => {
  await deleteOrgPolicy(org, params.policyID, ifMatch);
  return reply.status('Policy deleted', params.policyID);
});
