import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { keysDashboardCreate } from '../../shared/route-groups/keys';
import { createOrgKey } from '../../shared/services/keys';

/** POST /api/keys: a key of the caller's organisation; the clear key is answered this once. */
export const handler = createHandler(keysDashboardCreate, async ({ org, body }) => reply.ok(await createOrgKey(org, body)));
