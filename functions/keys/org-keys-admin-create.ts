import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { createKeyForOrganisation } from '../../shared/services/keys';

/** POST /admin/org/keys: a key for the organisation in org_id. */
export const handler = createHandler(routes.orgKeysAdminCreate, async ({ body }) => reply.ok(await createKeyForOrganisation(body)));
