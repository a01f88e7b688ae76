import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { createPolicy } from '../../shared/store/policies';

/** POST /gw/policies (spec 20): stored under the client's id; 409 when taken. */
export const handler = createHandler(routes.policiesCreate, async ({ body }) => {
  const policy = await createPolicy(body);
  return gatewayOk('added', policy.id);
});
