/**
 * Where an API is live (docs/using/serving-apis.md "Where an API is live"): from a gateway's last
 * report and the installation's routing version, whether the gateway serves the API as it is now.
 * The routing table a gateway applied was read after its version, so it holds every change up to
 * that version: a gateway at the current version serves every API as it is. A gateway behind it
 * still serves an API whose last change came before its table's version last moved (each
 * change moves the version in its own transaction, with the writer's clock: within the moment two
 * writers share, a change may count as applied one poll early).
 */
import type { GatewayReport } from '../schemas/gateway-status';

export interface StoredGatewayReport extends GatewayReport {
  gateway_id: string;
  reported_at: string;
}

export interface ApiOnGateway {
  gateway_id: string;
  kind: GatewayReport['kind'];
  state: 'applied' | 'pending' | 'left_out';
  applied_at: string | null;
  reported_at: string;
  reason: string | null;
}

/**
 * `api` on the gateway of `report`, the routing version being `current` now. Another
 * organisation's APIs are never named: a gateway's own error text is not shown (it may name
 * them), only that it fails.
 */
export function apiOnGateway(api: { api_id: string; updated_at: string }, report: StoredGatewayReport, current: number): ApiOnGateway {
  const base = { gateway_id: report.gateway_id, kind: report.kind, applied_at: report.applied_at, reported_at: report.reported_at };
  const left = report.skipped.find((s) => s.api_id === api.api_id);
  if (left) return { ...base, state: 'left_out', reason: left.reason };
  const caughtUp = report.version >= current;
  const after = report.changed_at !== null && Date.parse(report.changed_at) >= Date.parse(api.updated_at);
  if (caughtUp || after) return { ...base, state: 'applied', reason: null };
  return {
    ...base,
    state: 'pending',
    reason: report.last_error === null ? null : 'the gateway failed to apply the latest routing table; it serves the last good one',
  };
}
