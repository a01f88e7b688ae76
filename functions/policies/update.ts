import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { policiesUpdate } from '../../shared/route-groups/policies';
import { replacePolicy } from '../../shared/services/policies';

/** PUT /gw/policies/{policyID}: full replacement; `_id` and `date_created` are kept. */
export const handler = createHandler(policiesUpdate, async ({ params, body, ifMatch }) => {
  await replacePolicy(params.policyID, body, ifMatch);
  return reply.gateway('modified', params.policyID);
});
