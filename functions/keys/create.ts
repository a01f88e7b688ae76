import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { createGatewayKey } from '../../shared/services/keys';

/** POST /gw/keys/create: the clear key is answered this once; only its hash is stored. */
export const handler = createHandler(routes.keysCreate, async ({ body }) => {
  const { key, hash } = await createGatewayKey(body);
  return gatewayOk('added', key, hash);
});
