import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { routingApiGateways } from '../../shared/route-groups/routing';
import { gatewaysOfApi } from '../../shared/services/gateway-reports';

/** GET /api/apis/{apiID}/gateways: where an API of the caller's organisation is live. */
export const handler = createHandler(routingApiGateways, async ({ org, params }) => reply.ok({ gateways: await gatewaysOfApi(org, params.apiID) }));
