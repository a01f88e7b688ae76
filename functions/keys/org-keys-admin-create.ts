import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { orgKeysAdminCreate } from '../../shared/route-groups/keys';
import { createKeyForOrganisation } from '../../shared/services/keys';

/** POST /admin/org/keys: a key for the organisation in org_id. */
export const handler = createHandler(orgKeysAdminCreate, async ({ body }) => reply.ok(await createKeyForOrganisation(body)));
