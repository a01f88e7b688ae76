import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { policiesDelete } from '../../shared/route-groups/policies';
import { deletePolicy } from '../../shared/services/policies';

/** DELETE /gw/policies/{policyID}: keys naming the policy stop receiving what it granted. */
export const handler = createHandler(policiesDelete, async ({ params, ifMatch }) => {
  await deletePolicy(params.policyID, ifMatch);
  return reply.gateway('deleted', params.policyID);
});
