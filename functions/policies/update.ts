import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { policiesRoutes as routes } from '../../shared/route-groups/policies';
import { replacePolicy } from '../../shared/services/policies';

/** PUT /gw/policies/{policyID}: full replacement; `_id` and `date_created` are kept; 400 when the body names another id. */
export const handler = createHandler(routes.policiesUpdate, async ({ params, body, ifMatch }) => {
  await replacePolicy(params.policyID, body, ifMatch);
  return gatewayOk('modified', params.policyID);
});
