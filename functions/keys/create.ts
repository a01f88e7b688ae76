import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { issueKey } from '../../shared/store/key-lifecycle';

/** POST /gw/keys/create (spec 17): the clear key is answered this once; only its hash is stored. */
export const handler = createHandler(routes.keysCreate, async ({ body }) => {
  const { key, hash } = await issueKey(body, body.org_id ?? '');
  return gatewayOk('added', key, hash);
});
