/** Generic helpers for lists, with no knowledge of the project. */

/** `items` in runs of at most `size`, in order (the same runs for the same input, every time). */
export function slicesOf<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
