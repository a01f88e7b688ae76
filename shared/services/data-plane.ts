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
import { planDataPlane, type DataPlaneApi, type RouteWrite } from '../domain/apigw-plan';
import { sdkDataPlane } from '../net/apigw-data-plane';
import { errorField, logger } from '../observability/logger';
import { reportGateway } from './gateway-reports';
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

/** One run: read the table and the API, apply the difference, report. A failed run reports its error and throws. */
export async function reconcileDataPlane(api: DataPlaneApi, target: DataPlaneTarget): Promise<ReconcileResult> {
  const table = await routingTable();
  try {
    const [routes, integrations] = await Promise.all([api.routes(), api.integrations()]);
    const plan = planDataPlane({ model: table, host: target.host, authorizerId: target.authorizerId, current: { routes, integrations } });
    const ids = new Map(integrations.flatMap((i) => (i.Description ? [[i.Description, i.IntegrationId] as const] : [])));
    const routeWrite = (spec: { RouteKey: string; integration: string; AuthorizationType: 'CUSTOM' | 'NONE'; AuthorizerId?: string }): RouteWrite => ({
      RouteKey: spec.RouteKey,
      Target: `integrations/${ids.get(spec.integration)}`,
      AuthorizationType: spec.AuthorizationType,
      ...(spec.AuthorizerId ? { AuthorizerId: spec.AuthorizerId } : {}),
    });
    // In the plan's order: integrations before the routes that name them, deletions last.
    for (const c of plan.changes) {
      if (c.op === 'createIntegration') ids.set(c.spec.Description, await api.createIntegration(c.spec));
      else if (c.op === 'updateIntegration') await api.updateIntegration(c.integrationId, c.spec);
      else if (c.op === 'createRoute') await api.createRoute(routeWrite(c.spec));
      else if (c.op === 'updateRoute') await api.updateRoute(c.routeId, routeWrite(c.spec));
      else if (c.op === 'deleteRoute') await api.deleteRoute(c.routeId);
      else await api.deleteIntegration(c.integrationId);
    }
    const skipped = [
      ...table.skipped.map((s) => ({ api_id: s.apiId, reason: s.reason })),
      ...plan.skipped.map((s) => ({ api_id: s.apiId, reason: `${s.listenPath}: ${s.reason}` })),
    ];
    served = { version: table.version, changed_at: table.changed_at, applied_at: new Date().toISOString() };
    await reportGateway(target.gatewayId, { kind: 'api-gateway', ...served, failures, last_error: null, skipped: skipped.slice(0, 500) });
    return { version: table.version, changes: plan.changes.length, skipped };
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
  const { apiId, authorizerId, gatewayId } = config().dataPlane;
  if (!apiId || !authorizerId) throw new Error('DATA_PLANE_API_ID and DATA_PLANE_AUTHORIZER_ID must be set');
  return reconcileDataPlane(sdkDataPlane(apiId), { gatewayId, host: '', authorizerId });
}
