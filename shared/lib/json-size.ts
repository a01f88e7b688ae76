/**
 * The size of a value as JSON, counted without building the text. A YAML document whose aliases
 * repeat one large anchor is small in memory (every alias shares the anchor's value) but huge once
 * serialised; counting stops as soon as the limit is passed, so the work is bounded by the limit
 * whatever the value would expand to (cycles included).
 */

/** Bytes of `JSON.stringify(value)` (UTF-8), or undefined once they pass `limit`. */
export function jsonBytesWithin(value: unknown, limit: number): number | undefined {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    total += ownBytes(stack.pop(), stack);
    if (total > limit) return undefined;
  }
  return total;
}

/** Bytes a value adds by itself (brackets, separators, keys, scalars); pushes its children. */
function ownBytes(v: unknown, stack: unknown[]): number {
  if (v === null || v === undefined || typeof v === 'function' || typeof v === 'symbol') return 4; // null
  if (typeof v === 'string') return Buffer.byteLength(JSON.stringify(v));
  if (typeof v === 'number') return Number.isFinite(v) ? String(v).length : 4;
  if (typeof v === 'boolean') return v ? 4 : 5;
  if (typeof v === 'bigint') return String(v).length;
  if (Array.isArray(v)) {
    for (const item of v) stack.push(item);
    return 2 + Math.max(0, v.length - 1);
  }
  let bytes = 2;
  let members = 0;
  for (const [k, child] of Object.entries(v as object)) {
    if (child === undefined || typeof child === 'function' || typeof child === 'symbol') continue;
    bytes += Buffer.byteLength(JSON.stringify(k)) + 1;
    members++;
    stack.push(child);
  }
  return bytes + Math.max(0, members - 1);
}
