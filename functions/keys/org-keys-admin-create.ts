import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { createOrganisationKey } from '../../shared/services/keys';

/** POST /admin/org/keys: a key for the organisation in org_id (422 when it does not exist). */
export const handler = createHandler(routes.orgKeysAdminCreate, async ({ body }) => ok(await createOrganisationKey(body)));
