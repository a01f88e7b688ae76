/**
 * Gateways say what they serve, and an API's page says where it is live (docs/using/serving-apis.md
 * "Where an API is live").
 */
import { apiOnGateway, type ApiOnGateway } from '../domain/api-on-gateway';
import { NotFound } from '../errors';
import type { GatewayReport } from '../schemas/gateway-status';
import { loadGatewayReports, putGatewayReport } from '../store/gateway-reports';
import { loadRoutingVersion } from '../store/routing-version';
import { orgApiSummary } from './org-apis';

/** PUT /gw/gateways/{gatewayID}: the gateway's report replaces its last one, stamped with the service's clock. */
export async function reportGateway(gatewayId: string, report: GatewayReport): Promise<void> {
  await putGatewayReport({ ...report, gateway_id: gatewayId, reported_at: new Date().toISOString() });
}

/** GET /api/apis/{apiID}/gateways: each gateway, and whether it serves the caller's API as it is now (404: not the caller's). */
export async function gatewaysOfApi(orgId: string, apiId: string): Promise<ApiOnGateway[]> {
  const [api, reports, { version }] = await Promise.all([orgApiSummary(orgId, apiId), loadGatewayReports(), loadRoutingVersion()]);
  if (!api) throw new NotFound(`API ${apiId} not found`);
  return reports.map((r) => apiOnGateway({ api_id: api.api_id, updated_at: api.updated_at }, r, version));
}
