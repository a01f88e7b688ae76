import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { apisRoutes as routes } from '../../shared/route-groups/apis';
import { createOasApi } from '../../shared/services/apis';

/**
 * POST /gw/apis/oas: full document with x-gw-api-gateway, or the bare extension; 409 taken id.
 * With base_api_id the API is created as a version of that base (422 unknown base or missing
 * new_version_name), both written in one transaction.
 */
export const handler = createHandler(routes.oasCreate, async ({ body, query }) => gatewayOk('added', (await createOasApi(body, query)).api_id));
