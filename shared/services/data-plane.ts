/**
 * The API Gateway data plane's reconciler (docs/operating/data-plane.md): makes a data-plane HTTP
 * API's routes and integrations equal to the routing table (the same table nginx follows,
 * ./routing.ts), through the control-plane calls of `DataPlaneApi`, and reports what it serves as
 * a gateway of kind `api-gateway`, so an API's page shows whether it is live there. Each run reads
 * the API's current routes and integrations and applies only the difference
 * (shared/domain/apigw-plan.ts), so a run repeated after a crash or beside another one converges on
 * the same state; the change feed triggers a run on every change of a definition or grant, and a
 * periodic run repairs drift made by hand.
 */
import { config } from '../config';
import type { DataPlaneApi } from '../domain/apigw-plan';
import { sdkDataPlane } from '../net/apigw-data-plane';
import { sdkDataPlaneAccount } from '../net/apigw-data-plane-account';
import { errorField, logger } from '../observability/logger';
import { reportGateway } from './gateway-reports';
import { reconcileDomains, type OwnedDomains } from './data-plane-domains';
import { applyRoutes } from './data-plane-routes';
import { routingTable } from './routing';

export interface DataPlaneTarget {
  /** How the reconciler reports itself (PUT /gw/gateways/{gatewayID}). */
  gatewayId: string;
  /** The host the data-plane API serves ('' for the shared hosts). */
  host: string;
  /** The Lambda authorizer set on every keyed route. */
  authorizerId: string;
}

export interface ReconcileResult {
  version: number;
  changes: number;
  skipped: Array<{ api_id: string; reason: string }>;
}

/** Failed runs since this process started: the report's `failures`. */
let failures = 0;
/** What this process last applied: a failed run reports it, as the table the data plane still serves. */
let served: { version: number; changed_at: string | null; applied_at: string | null } = { version: 0, changed_at: null, applied_at: null };

/** One run: read the table and the APIs, apply the difference, report. A failed run reports its error and throws. */
export async function reconcileDataPlane(api: DataPlaneApi, target: DataPlaneTarget, domains?: OwnedDomains): Promise<ReconcileResult> {
  const table = await routingTable();
  try {
    const shared = await applyRoutes(api, table, target.host, target.authorizerId);
    const owned = domains ? await reconcileDomains(domains, table) : { changes: 0, skipped: [] };
    const skipped = [
      ...table.skipped.map((s) => ({ api_id: s.apiId, reason: s.reason })),
      ...[...shared.skipped, ...owned.skipped].map((s) => ({ api_id: s.apiId, reason: `${s.listenPath}: ${s.reason}` })),
    ];
    served = { version: table.version, changed_at: table.changed_at, applied_at: new Date().toISOString() };
    await reportGateway(target.gatewayId, { kind: 'api-gateway', ...served, failures, last_error: null, skipped: skipped.slice(0, 500) });
    return { version: table.version, changes: shared.changes + owned.changes, skipped };
  } catch (e) {
    failures++;
    logger.error('data plane not reconciled', { gateway_id: target.gatewayId, error: errorField(e) });
    const message = e instanceof Error ? e.message : String(e);
    await reportGateway(target.gatewayId, { kind: 'api-gateway', ...served, failures, last_error: message.slice(0, 2000), skipped: [] }).catch(() => undefined);
    throw e;
  }
}

/** The deployed reconciler's run (functions/routing/data-plane-reconcile.ts): the data-plane API its settings name, through the SDK. */
export function reconcileConfiguredDataPlane(): Promise<ReconcileResult> {
  const { apiId, authorizerId, authorizerUri, gatewayId, portalOrigin } = config().dataPlane;
  if (!apiId || !authorizerId) throw new Error('DATA_PLANE_API_ID and DATA_PLANE_AUTHORIZER_ID must be set');
  // Owned domains need the authorizer's URI for their own APIs' authorizers; without it the shared hosts alone are served.
  const domains = authorizerUri
    ? { account: sdkDataPlaneAccount(), authorizerUri, namePrefix: gatewayId, ...(portalOrigin ? { portalOrigin } : {}) }
    : undefined;
  return reconcileDataPlane(sdkDataPlane(apiId), { gatewayId, host: '', authorizerId }, domains);
}
