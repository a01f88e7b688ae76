/**
 * The periods of the usage page, as the usage routes take them: whole UTC days from start to end
 * inclusive in the path, `resolution=hour` (at most 31 days) or `day`. "24 hours" asks for
 * yesterday and today by the hour and keeps the last 24 hours.
 */
export type Span = '24h' | '7d' | '30d';

export const SPANS: Array<{ span: Span; label: string }> = [
  { span: '24h', label: '24 hours' },
  { span: '7d', label: '7 days' },
  { span: '30d', label: '30 days' },
];

const DAY = 86_400_000;
const HOUR = 3_600_000;

export interface UsageRange {
  resolution: 'hour' | 'day';
  /** The path's dates: day, month, year of the first and the last day. */
  path: { startDay: string; startMonth: string; startYear: string; EndDay: string; EndMonth: string; EndYear: string };
  /** Rows before this instant (ms) are left out. */
  since: number;
}

const dayParts = (t: number) => {
  const d = new Date(t);
  return [String(d.getUTCDate()), String(d.getUTCMonth() + 1), String(d.getUTCFullYear())] as const;
};

export function rangeOf(span: Span, now: number = Date.now()): UsageRange {
  const today = Math.floor(now / DAY) * DAY;
  const days = span === '7d' ? 7 : 30;
  const start = span === '24h' ? now - 24 * HOUR : today - (days - 1) * DAY;
  const [startDay, startMonth, startYear] = dayParts(start);
  const [EndDay, EndMonth, EndYear] = dayParts(now);
  return {
    resolution: span === '24h' ? 'hour' : 'day',
    path: { startDay, startMonth, startYear, EndDay, EndMonth, EndYear },
    since: span === '24h' ? Math.floor(now / HOUR) * HOUR - 23 * HOUR : today - (days - 1) * DAY,
  };
}

/** A period's label on the chart's axis: the hour (24 hours) or the day (UTC, as the service counts). */
export function periodLabel(period: string, resolution: 'hour' | 'day'): string {
  const d = new Date(period);
  return resolution === 'hour'
    ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' })
    : d.toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
}
