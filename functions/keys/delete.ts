import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { deleteKey } from '../../shared/store/gw-keys';
import { findKey } from '../../shared/store/key-lifecycle';

/** DELETE /gw/keys/{keyID}: the key, its live quotas and its user-name marker go together. */
export const handler = createHandler(routes.keysDelete, async ({ params, query }) => {
  const item = await findKey(params.keyID, query);
  await deleteKey(item.session.key_hash);
  return gatewayOk('deleted', params.keyID, item.session.key_hash);
});
