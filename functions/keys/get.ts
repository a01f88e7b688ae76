import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { findKey, showKey } from '../../shared/store/key-lifecycle';

/** GET /gw/keys/{keyID} (spec 18): the session with its live quota; hashed=true takes the hash. */
export const handler = createHandler(routes.keysGet, async ({ params, query }) => {
  const item = await findKey(params.keyID, query);
  return ok(await showKey(item), { version: item.version });
});
