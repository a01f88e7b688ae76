import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { listOrgKeys } from '../../shared/services/keys';

/** GET /api/keys: the caller's organisation's keys by hash, newest first, paged. */
export const handler = createHandler(routes.keysList, async ({ org, query }) => reply.ok(await listOrgKeys(org, query)));
