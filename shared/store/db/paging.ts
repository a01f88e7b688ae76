import { QueryCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { INDEXES, TABLE_KEYS, type IndexName } from './table';
import { ddb, tableName } from './client';
import { BadRequest } from '../../errors';
import type { PageExtent, PageRequest } from '../../domain/paging';
import { LIMITS } from '../../limits';
import { openCursorText, packStrings, sealCursorText, unpackStrings } from '../../domain/cursors';
import { serviceKey } from '../../secrets';

type Key = Record<string, string>;
type Item = Record<string, unknown>;

export interface ListQuery {
  /** Query an index, or the base table when absent. */
  index?: IndexName;
  partition: string;
  /** Only items whose sort key starts with this. */
  sortPrefix?: string;
  /** Only items whose sort key lies between these (inclusive; either may be absent). Not with sortPrefix. */
  sortRange?: { from?: string; to?: string };
  /** Ascending sort key order when true. */
  forward: boolean;
  /** Optional filter (search); pages then count matching items only. */
  filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> };
  /** Stops reading once the items collected weigh more than this (a list too big to answer). */
  budget?: ListBudget;
}

interface ListBudget {
  bytes: number;
  /** A lower bound of what the item adds to the answer. */
  sizeOf: (item: Item) => number;
  exceeded: () => Error;
}

export interface ListPage<T> {
  items: T[];
  nextCursor?: string;
  /** What the read learnt of the list, for `pages` where no count is kept (domain/paging.ts pagesSeen). */
  extent: PageExtent;
}

/**
 * The most one Query call reads: DynamoDB stops a Query once it has read 1 MB, after the item that
 * crossed it (at most 400 KB).
 */
const QUERY_CALL_BYTES = 1024 * 1024 + 400 * 1024;
/** What a read capacity unit of an eventually consistent read stands for (lists never read consistently). */
const BYTES_PER_READ_UNIT = 8192;

/** What a Query of a filtered list evaluates per call at most, whatever its items weigh. */
const MAX_FILTERED_CALL_ITEMS = 1000;
/** What the first Query of a filtered list evaluates, before a call has shown what its items weigh (3 of 400 KB fit one call's bound). */
const FIRST_FILTERED_CALL_ITEMS = 3;

/**
 * What one list request has read, as DynamoDB counts it (whole items, even when only their keys
 * are asked for), from the capacity each Query reports; a Query that reports none counts as the
 * most a call reads. Another call is made only while it cannot take the request past
 * `LIMITS.listReadBytes` (docs/reference/limits.md).
 */
class ReadMeter {
  private used = 0;
  /** Items of about 1 MB, from what the calls so far read per item evaluated. */
  private megabyteOfItems: number | undefined;

  /** Whether one more Query call, and `thenCalls` after it, stay within the request's budget. */
  canRead(thenCalls = 0): boolean {
    return this.used + (1 + thenCalls) * QUERY_CALL_BYTES <= LIMITS.listReadBytes;
  }

  /**
   * One Query call. A filtered one is given a Limit (items evaluated, not matched) of about 1 MB of
   * items, and a few (at most `first`) until a call has shown what they weigh: DynamoDB stops at
   * 1 MB anyway, but DynamoDB Local reads a filtered partition whole in one call.
   */
  async query(input: QueryCommandInput, filtered: { first: number } | undefined): Promise<QueryCommandOutput> {
    const limit = filtered ? { Limit: Math.min(MAX_FILTERED_CALL_ITEMS, this.megabyteOfItems ?? Math.min(FIRST_FILTERED_CALL_ITEMS, filtered.first)) } : {};
    const out = await ddb().send(new QueryCommand({ ...input, ...limit, ReturnConsumedCapacity: 'TOTAL' }));
    const units = out.ConsumedCapacity?.CapacityUnits;
    const bytes = units === undefined ? QUERY_CALL_BYTES : units * BYTES_PER_READ_UNIT;
    this.used += bytes;
    if (out.ScannedCount) this.megabyteOfItems = Math.max(1, Math.floor((1024 * 1024 * out.ScannedCount) / Math.max(1, bytes)));
    return out;
  }
}

function keyAttributes(index?: IndexName) {
  const base = [TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey];
  const idx = index ? INDEXES.find((i) => i.name === index) : undefined;
  return {
    pk: idx?.partitionKey ?? TABLE_KEYS.partitionKey,
    sk: idx?.sortKey ?? TABLE_KEYS.sortKey,
    all: idx ? [...base, idx.partitionKey, idx.sortKey] : base,
  };
}

function keyOf(item: Item, attrs: string[]): Key {
  return Object.fromEntries(attrs.map((a) => [a, String(item[a])]));
}

/** What a cursor is bound to: the index, partition, range, order and filter of its list. */
function listIdentity(q: ListQuery): string {
  return JSON.stringify([q.index ?? '', q.partition, q.sortPrefix ?? '', q.sortRange ?? {}, q.forward, q.filter?.expression ?? '', q.filter?.values ?? {}]);
}

/**
 * The start key as a sealed cursor: only its values, in attribute order, never their names, and
 * not the partition's (the list names it), then how many items of the list lie before it (for
 * `pages` where no count is kept). Key attributes are bounded (`KEY_BYTES`, docs/reference/limits.md), so
 * the cursor always fits the 2,048 characters a list accepts (contract §5).
 */
async function encodeCursor(q: ListQuery, key: Key, seen: number): Promise<string> {
  const { pk, all } = keyAttributes(q.index);
  const values = [...all.filter((a) => a !== pk).map((a) => key[a]!), String(seen)];
  return sealCursorText(packStrings(values), await serviceKey('cursor'), listIdentity(q));
}

async function decodeCursor(cursor: string, q: ListQuery): Promise<{ start: Key; seen: number }> {
  const { pk, all } = keyAttributes(q.index);
  const rest = all.filter((a) => a !== pk);
  const values = unpackStrings(openCursorText(cursor, await serviceKey('cursor'), listIdentity(q)));
  // Only a cursor we sealed for this list opens; its shape is checked anyway, so that nothing
  // but a start key of this very partition can ever reach the Query (DynamoDB would answer 500).
  const seen = values?.[rest.length];
  if (!values || values.length !== rest.length + 1 || !/^\d{1,12}$/.test(seen!)) {
    throw new BadRequest('cursor is not valid for this list', [{ path: 'query.cursor', message: 'unknown cursor' }]);
  }
  return { start: { ...Object.fromEntries(rest.map((a, i) => [a, values[i]!])), [pk]: q.partition } as Key, seen: Number(seen) };
}

function baseInput(q: ListQuery): QueryCommandInput {
  const { pk, sk } = keyAttributes(q.index);
  const names: Record<string, string> = { '#pk': pk, ...(q.filter?.names ?? {}) };
  const values: Record<string, unknown> = { ':pk': q.partition, ...(q.filter?.values ?? {}) };
  let condition = '#pk = :pk';
  if (q.sortPrefix) {
    names['#sk'] = sk;
    values[':skp'] = q.sortPrefix;
    condition += ' AND begins_with(#sk, :skp)';
  }
  const { from, to } = q.sortRange ?? {};
  if (from !== undefined || to !== undefined) {
    names['#sk'] = sk;
    if (from !== undefined) values[':skfrom'] = from;
    if (to !== undefined) values[':skto'] = to;
    condition +=
      from !== undefined && to !== undefined ? ' AND #sk BETWEEN :skfrom AND :skto' : from !== undefined ? ' AND #sk >= :skfrom' : ' AND #sk <= :skto';
  }
  return {
    TableName: tableName(),
    IndexName: q.index,
    KeyConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: q.forward,
    FilterExpression: q.filter?.expression,
  };
}

/**
 * Skips `offset` matching items reading only their key attributes, and answers the start key of
 * the item after them (none when the offset is 0), or how many there were when the list ends
 * first. DynamoDB still reads (and bills) whole items, so the skip is as costly as the pages it
 * passes: it is refused (400) once it would read past the request's budget, and a cursor, whose
 * cost is one page, continues from there instead.
 */
async function skip(q: ListQuery, meter: ReadMeter, offset: number, page: number): Promise<{ start?: Key } | { ended: number }> {
  if (offset <= 0) return {};
  const { all } = keyAttributes(q.index);
  const input = baseInput(q);
  const names = { ...input.ExpressionAttributeNames };
  all.forEach((a, i) => (names[`#k${i}`] = a));
  let start: Key | undefined;
  let remaining = offset;
  for (;;) {
    // Room is kept for the page's first call after the skip.
    if (!meter.canRead(1)) throw tooDeep(page);
    const out = await meter.query(
      {
        ...input,
        ExpressionAttributeNames: names,
        ProjectionExpression: all.map((_, i) => `#k${i}`).join(', '),
        ExclusiveStartKey: start,
        Limit: remaining,
      },
      q.filter && { first: remaining },
    );
    const items = out.Items ?? [];
    if (items.length >= remaining) return { start: keyOf(items[remaining - 1]!, all) };
    remaining -= items.length;
    if (!out.LastEvaluatedKey) return { ended: offset - remaining };
    start = out.LastEvaluatedKey as Key;
  }
}

const tooDeep = (page: number) =>
  new BadRequest(
    `page ${page} lies deeper than a page number may reach in this list (a list request reads at most ` +
      `${LIMITS.listReadBytes / 1_000_000} MB of stored items); follow next_cursor from an earlier page instead`,
    [{ path: 'query.p', message: 'too deep for a page number: use cursor' }],
  );

const tooLargeForAll = () =>
  new BadRequest(
    `The list is larger than one request may read (${LIMITS.listReadBytes / 1_000_000} MB of stored items); ask for it in pages (p, page_size or cursor)`,
    [{ path: 'query.p', message: 'too large for one answer' }],
  );

/**
 * Reads up to `limit` matching items from `start` (all when limit is undefined). `resume` is where
 * the list continues when more may follow: after the page, or, when the request's read budget ran
 * out first, after the last item read (a filtered list may then have found fewer than `limit`).
 */
async function collect(q: ListQuery, meter: ReadMeter, start: Key | undefined, limit?: number): Promise<{ items: Item[]; resume?: Key }> {
  const { all } = keyAttributes(q.index);
  const input = baseInput(q);
  const items: Item[] = [];
  let weight = 0;
  let next = start;
  for (;;) {
    const want = limit === undefined ? undefined : limit + 1 - items.length;
    const out = await meter.query({ ...input, ExclusiveStartKey: next, Limit: want }, q.filter && { first: want ?? MAX_FILTERED_CALL_ITEMS });
    const got = (out.Items ?? []) as Item[];
    if (q.budget) {
      // The extra item read to learn whether there is a next page is not part of the answer.
      const counted = limit === undefined ? got : got.slice(0, Math.max(0, limit - items.length));
      for (const item of counted) weight += q.budget.sizeOf(item);
      if (weight > q.budget.bytes) throw q.budget.exceeded();
    }
    items.push(...got);
    if (limit !== undefined && items.length > limit) return { items: items.slice(0, limit), resume: keyOf(items[limit - 1]!, all) };
    if (!out.LastEvaluatedKey) return { items };
    next = out.LastEvaluatedKey as Key;
    if (!meter.canRead()) {
      if (limit === undefined) throw tooLargeForAll();
      return { items, resume: next };
    }
  }
}

/**
 * One page of a list, by page number, by cursor, or all of it; never a Scan. Whatever it asks, a
 * request reads at most `LIMITS.listReadBytes` of stored items (docs/reference/limits.md): a page that would
 * read more ends early with a cursor to continue, a page number that would skip more is 400, and
 * so is "all" of a list that holds more.
 */
export async function listPage(q: ListQuery, req: PageRequest): Promise<ListPage<Item>> {
  const meter = new ReadMeter();
  if (req.mode === 'all') {
    const { items } = await collect(q, meter, undefined);
    return { items, extent: { seen: items.length, more: false } };
  }
  let start: Key | undefined;
  let before: number;
  if (req.mode === 'cursor') ({ start, seen: before } = await decodeCursor(req.cursor, q));
  else {
    const skipped = await skip(q, meter, req.offset, req.page);
    if ('ended' in skipped) return { items: [], extent: { seen: skipped.ended, more: false } };
    start = skipped.start;
    before = req.offset;
  }
  const { items, resume } = await collect(q, meter, start, req.size);
  const seen = before + items.length;
  return { items, nextCursor: resume ? await encodeCursor(q, resume, seen) : undefined, extent: { seen, more: resume !== undefined } };
}
