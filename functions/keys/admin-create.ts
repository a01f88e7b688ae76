import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { issueKey } from '../../shared/store/key-lifecycle';

/** POST /admin/org/keys (spec 9): a key for the organisation in org_id (422 when it does not exist). */
export const handler = createHandler(routes.orgKeysAdminCreate, async ({ body }) => {
  const { key, hash, session } = await issueKey(body, body.org_id, true);
  return ok({ api_model: {}, key_id: key, data: session, key_hash: hash });
});
