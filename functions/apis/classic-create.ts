import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { recordFromClassic } from '../../shared/domain/api-records';
import { apisRoutes as routes } from '../../shared/route-groups/apis';
import { createApi } from '../../shared/store/apis';

/** POST /gw/apis: create a classic API; 409 when api_id is taken. */
export const handler = createHandler(routes.classicCreate, async ({ body }) => {
  const api = await createApi(recordFromClassic(body, new Date().toISOString()));
  return gatewayOk('added', api.api_id);
});
