import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { apisRoutes as routes } from '../../shared/route-groups/apis';
import { createClassicApi } from '../../shared/services/apis';

/** POST /gw/apis: create a classic API; 409 when api_id or the listen path is taken. */
export const handler = createHandler(routes.classicCreate, async ({ body }) => gatewayOk('added', (await createClassicApi(body)).api_id));
