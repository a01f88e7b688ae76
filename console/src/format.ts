/** How times and ids read on the pages (the browser's locale and time zone). */

/** An ISO time or Unix seconds, as a date and time; empty for none. */
export function dateTime(value: string | number | undefined | null): string {
  if (value === undefined || value === null || value === '' || value === 0) return '';
  const d = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(d.getTime()) ? String(value) : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A long hash, shortened for a table (the whole one is in the title). */
export const shortHash = (h: string): string => (h.length > 12 ? `${h.slice(0, 8)}…${h.slice(-4)}` : h);

/** A string member of an untyped object (API definitions are open objects). */
export function text(obj: unknown, ...path: string[]): string {
  let v: unknown = obj;
  for (const p of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

/** An object member of an untyped object. */
export function member(obj: unknown, ...path: string[]): Record<string, unknown> | undefined {
  let v: unknown = obj;
  for (const p of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
