import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { hooksRoutes as routes } from '../../shared/route-groups/hooks';
import { listHooks } from '../../shared/services/hooks';

/** GET /api/hooks: the caller's organisation's hooks in creation order, paged (contract §5). */
export const handler = createHandler(routes.hooksList, async ({ org, query }) => ok(await listHooks(org, query)));
