import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { BadRequest } from '../../shared/errors';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { replacePolicy } from '../../shared/store/policies';

/** PUT /gw/policies/{policyID}: full replacement; `_id` and `date_created` are kept. */
export const handler = createHandler(routes.policiesUpdate, async ({ params, body, ifMatch }) => {
  if (body.id !== params.policyID) {
    throw new BadRequest(`The body names policy ${body.id} but the path names ${params.policyID}`, [{ path: 'body.id', message: 'must equal the policy id of the path' }]);
  }
  await replacePolicy(body, ifMatch);
  return gatewayOk('modified', params.policyID);
});
