import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { Unprocessable } from '../../shared/http/errors';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { getOrganisation } from '../../shared/store/organisations';
import { issueKey } from '../../shared/store/key-lifecycle';

/** POST /admin/org/keys (spec 9): a key for the organisation in org_id (422 when it does not exist). */
export const handler = createHandler(routes.orgKeysAdminCreate, async ({ body }) => {
  if (!(await getOrganisation(body.org_id))) throw new Unprocessable(`organisation ${body.org_id} does not exist`);
  const { key, hash, session } = await issueKey(body, body.org_id);
  return ok({ api_model: {}, key_id: key, data: session, key_hash: hash });
});
