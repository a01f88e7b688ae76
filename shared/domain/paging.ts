/** Page arithmetic of contract §5, kept apart from storage so it is unit-tested alone. */
const DEFAULT_PAGE_SIZE = 10;

export type PageRequest = { mode: 'all' } | { mode: 'page'; page: number; size: number; offset: number } | { mode: 'cursor'; cursor: string; size: number };

export function pageRequest(q: { p?: number; page_size?: number; cursor?: string }): PageRequest {
  const size = q.page_size ?? DEFAULT_PAGE_SIZE;
  if (q.cursor) return { mode: 'cursor', cursor: q.cursor, size };
  const p = q.p ?? 0;
  if (p < 0) return { mode: 'all' };
  const page = p === 0 ? 1 : p;
  return { mode: 'page', page, size, offset: (page - 1) * size };
}

/** pages = ceil(total / size), from a maintained count; "all" is always one page. */
export function pageCount(total: number, req: PageRequest): number {
  if (req.mode === 'all') return 1;
  return Math.ceil(Math.max(0, total) / req.size);
}

/** What reading one page learnt of its list: the items up to the page's end, and whether any follow. */
export interface PageExtent {
  /** Items before the page plus the page's own. */
  seen: number;
  more: boolean;
}

/**
 * `pages` of a list without a maintained count (contract §5): the pages the read has seen, that
 * is the items up to this page's end in pages of this size, plus one when more follow. Exact on
 * the last page, a lower bound before it; "all" is always one page.
 */
export function pagesSeen(extent: PageExtent, req: PageRequest): number {
  if (req.mode === 'all') return 1;
  return Math.ceil(extent.seen / req.size) + (extent.more ? 1 : 0);
}
