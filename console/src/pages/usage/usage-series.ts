/** What the usage charts draw from the answer's rows: counts per period, and latency where a period had requests. */
import type { Series } from './usage-chart';

export interface UsageRow {
  hits: number;
  success: number;
  error: number;
  latency_avg: number;
  latency_max: number;
  upstream_latency_avg: number;
}

export function usageSeries(rows: readonly UsageRow[]): { requests: Series[]; latency: Series[] } {
  // The service answers 0 for the latency of a period without requests; it was not measured.
  const measured = (r: UsageRow, v: number) => (r.hits > 0 ? v : null);
  return {
    requests: [
      { label: 'Successes', data: rows.map((r) => r.success), color: '#1e7d32' },
      { label: 'Errors', data: rows.map((r) => r.error), color: '#b3261e' },
    ],
    latency: [
      { label: 'Average', data: rows.map((r) => measured(r, r.latency_avg)), color: '#0b57d0' },
      { label: 'Maximum', data: rows.map((r) => measured(r, r.latency_max)), color: '#6d28d9', dash: [6, 3] },
      { label: 'Upstream average', data: rows.map((r) => measured(r, r.upstream_latency_avg)), color: '#8a4b00', dash: [2, 2] },
    ],
  };
}
