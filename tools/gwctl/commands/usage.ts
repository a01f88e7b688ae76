/**
 * gwctl usage (docs/operating/organisations.md "Usage for billing"): a month's usage as the check
 * decided it, every organisation's or one's per API and day, as a table, JSON or the service's CSV.
 * The admin credential comes from GW_ADMIN_SECRET, never a flag.
 */
import { adminClient, GwctlError, HttpError } from '../client';
import type { Io } from './io';

export interface UsageOptions {
  month?: string;
  org?: string;
  output: 'text' | 'json' | 'csv';
}

interface Row {
  allowed: number;
  refused: number;
  refused_by_reason: Record<string, number | undefined>;
}

/** Columns padded to their widest cell, numbers to the right. */
function table(head: string[], rows: (string | number)[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: (string | number)[]) =>
    cells
      .map((c, i) => (typeof c === 'number' ? String(c).padStart(widths[i]!) : String(c).padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)];
}

const reasons = (r: Row) =>
  Object.entries(r.refused_by_reason)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
const cells = (r: Row) => [r.allowed, r.refused, reasons(r)];

export async function usage(o: UsageOptions, io: Io): Promise<number> {
  if (o.month !== undefined && !/^\d{4}-\d{2}$/.test(o.month)) throw new GwctlError('--month is YYYY-MM');
  const client = adminClient(io.env);
  const query = { ...(o.month ? { month: o.month } : {}), ...(o.output === 'csv' ? { format: 'csv' as const } : {}) };
  const asked = o.org
    ? await client.GET('/admin/organisations/{orgID}/usage', { params: { path: { orgID: o.org }, query }, parseAs: o.output === 'csv' ? 'text' : 'json' })
    : await client.GET('/admin/usage', { params: { query }, parseAs: o.output === 'csv' ? 'text' : 'json' });
  if (!asked.response.ok) throw new HttpError(asked.response.status, o.org ? `usage of ${o.org}` : 'usage', asked.error);
  if (o.output === 'csv') {
    io.out(String(asked.data).replace(/\r\n$/, '').replace(/\r\n/g, '\n'));
    return 0;
  }
  if (o.output === 'json') {
    io.out(JSON.stringify(asked.data, null, 2));
    return 0;
  }
  const head = ['allowed', 'refused', 'refused by reason'];
  if (o.org) {
    const d = asked.data as { month: string; total: Row; apis: Array<Row & { api_id: string }>; days: Array<Row & { day: string; api_id: string }> };
    io.out(`${o.org}, ${d.month}: ${d.total.allowed} allowed, ${d.total.refused} refused`);
    for (const l of table(
      ['api', ...head],
      d.apis.map((a) => [a.api_id, ...cells(a)]),
    ))
      io.out(l);
    io.out('');
    for (const l of table(
      ['day', 'api', ...head],
      d.days.map((x) => [x.day, x.api_id, ...cells(x)]),
    ))
      io.out(l);
    return 0;
  }
  const d = asked.data as { month: string; total: Row; organisations: Array<Row & { org_id: string }> };
  io.out(`${d.month}: ${d.total.allowed} allowed, ${d.total.refused} refused, ${d.organisations.length} organisations`);
  for (const l of table(
    ['organisation', ...head],
    d.organisations.map((x) => [x.org_id, ...cells(x)]),
  ))
    io.out(l);
  return 0;
}
