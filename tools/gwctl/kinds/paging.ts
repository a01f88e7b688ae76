/** Reads every page of a list by its cursor (contract §5), 100 items a page. */
export async function allPages<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; next_cursor?: string | undefined }>): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const r = await page(cursor);
    all.push(...r.items);
    cursor = r.next_cursor;
  } while (cursor);
  return all;
}
