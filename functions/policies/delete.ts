import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { deletePolicy } from '../../shared/store/policies';

/** DELETE /gw/policies/{policyID}: keys naming it stop receiving what it granted. */
export const handler = createHandler(routes.policiesDelete, async ({ params, ifMatch }) => {
  await deletePolicy(params.policyID, ifMatch);
  return gatewayOk('deleted', params.policyID);
});
