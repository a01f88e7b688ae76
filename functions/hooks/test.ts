import { createHandler } from '../../shared/http/create-handler';
import { statusOk } from '../../shared/http/envelopes';
import { hooksRoutes as routes } from '../../shared/route-groups/hooks';
import { pingHook } from '../../shared/services/deliveries';

/** POST /api/hooks/{hookID}/test: a Ping delivery, attempted through the change feed; 404 unknown. */
export const handler = createHandler(routes.hooksTest, async ({ org, params }) => statusOk('Ping queued', await pingHook(org, params.hookID)));
