/** Page arithmetic of contract §5, kept apart from storage so it is unit-tested alone. */
import { BadRequest } from '../errors';
import { openCursor, sealCursor } from './cursors';

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

/**
 * A page of rows computed in memory (contract §5). The cursor is the offset of the next row,
 * sealed with the service's cursor key and bound to the list it belongs to (`scope`), so that
 * only a cursor issued for this list opens (400 otherwise).
 */
export function pageRows<T>(rows: readonly T[], req: PageRequest, scope: string, cursorKey: Buffer): { data: T[]; pages: number; next_cursor?: string } {
  if (req.mode === 'all') return { data: [...rows], pages: 1 };
  const offset = req.mode === 'cursor' ? decodeOffset(req.cursor, cursorKey, scope) : req.offset;
  const data = rows.slice(offset, offset + req.size);
  const next = offset + req.size;
  return {
    data,
    pages: Math.ceil(rows.length / req.size),
    ...(next < rows.length ? { next_cursor: sealCursor(next, cursorKey, scope) } : {}),
  };
}

function decodeOffset(cursor: string, key: Buffer, scope: string): number {
  const o = openCursor(cursor, key, scope);
  if (!Number.isSafeInteger(o) || (o as number) < 0) {
    throw new BadRequest('cursor is not valid for this list', [{ path: 'query.cursor', message: 'unknown cursor' }]);
  }
  return o as number;
}
