/** What the usage charts draw from the answer's rows: counts per period, and latency where a period had requests. */
import type { Answer } from '../../api/paths';
import type { Series } from './usage-chart';

type UsageRow = Pick<
  Answer<'/api/usage/apis/{apiID}/{startDay}/{startMonth}/{startYear}/{EndDay}/{EndMonth}/{EndYear}', 'get'>['data'][number],
  'hits' | 'success' | 'error' | 'latency_avg' | 'latency_max' | 'upstream_latency_avg'
>;

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
