import { createHandler } from '../../shared/http/create-handler';
import { sessionsRoutes as routes } from '../../shared/route-groups/sessions';
import { checkOrRefuse } from '../../shared/services/session-check';

/** POST /gw/sessions/check (contract §10): 200 with the live quota, or 403/429 with the reason. */
export const handler = createHandler(routes.sessionsCheck, async ({ body }) => ({ body: await checkOrRefuse(body) }));
