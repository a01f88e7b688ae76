import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { apisRoutes as routes } from '../../shared/route-groups/apis';
import { createClassicApi } from '../../shared/services/apis';

/** POST /gw/apis: create a classic API. */
export const handler = createHandler(routes.classicCreate, async ({ body }) => reply.gateway('added', (await createClassicApi(body)).api_id));
