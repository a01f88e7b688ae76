import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { routingGatewayReport } from '../../shared/route-groups/routing';
import { reportGateway } from '../../shared/services/gateway-reports';

/** PUT /gw/gateways/{gatewayID}: what a gateway following the routing table serves. */
export const handler = createHandler(routingGatewayReport, async ({ params, body }) => {
  await reportGateway(params.gatewayID, body);
  return reply.gateway('modified', params.gatewayID);
});
