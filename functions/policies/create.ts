import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { policiesRoutes as routes } from '../../shared/route-groups/policies';
import { createPolicy } from '../../shared/services/policies';

/** POST /gw/policies: stored under the client's id; 409 when taken. */
export const handler = createHandler(routes.policiesCreate, async ({ body }) => gatewayOk('added', (await createPolicy(body)).id));
