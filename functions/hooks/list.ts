import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { hooksList } from '../../shared/route-groups/hooks';
import { listHooks } from '../../shared/services/hooks';

/** GET /api/hooks: the caller's organisation's webhooks in creation order, paged. */
export const handler = createHandler(hooksList, async ({ org, query }) => reply.ok(await listHooks(org, query)));
