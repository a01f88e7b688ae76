import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { getKey } from '../../shared/services/keys';

/** GET /gw/keys/{keyID}: the session with its live quota; hashed=true takes the hash. */
export const handler = createHandler(routes.keysGet, async ({ params, query }) => {
  const { session, version } = await getKey(params.keyID, query);
  return ok(session, { version });
});
