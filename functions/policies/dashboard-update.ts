import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { policiesDashboardUpdate } from '../../shared/route-groups/policies';
import { replaceOrgPolicy } from '../../shared/services/policies';

/** PUT /api/portal/policies/{policyID}: replace a policy of the caller's organisation. */
export const handler = createHandler(policiesDashboardUpdate, async ({ org, params, body, ifMatch }) => {
  const version = await replaceOrgPolicy(org, params.policyID, body, ifMatch);
  return reply.status('Policy updated', params.policyID, { etag: version });
});
