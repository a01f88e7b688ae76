import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { INDEXES, TABLE_KEYS, type IndexName } from './table';
import { ddb, tableName } from './client';
import { BadRequest } from '../../errors';
import type { PageRequest } from '../../domain/paging';
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
 * not the partition's (the list names it). Key attributes are bounded (`KEY_BYTES`, README
 * "Limits"), so the cursor always fits the 2,048 characters a list accepts (contract §5).
 */
async function encodeCursor(q: ListQuery, key: Key, attrs: string[]): Promise<string> {
  const { pk } = keyAttributes(q.index);
  return sealCursorText(packStrings(attrs.filter((a) => a !== pk).map((a) => key[a]!)), await serviceKey('cursor'), listIdentity(q));
}

async function decodeCursor(cursor: string, q: ListQuery): Promise<Key> {
  const { pk, all } = keyAttributes(q.index);
  const rest = all.filter((a) => a !== pk);
  const values = unpackStrings(openCursorText(cursor, await serviceKey('cursor'), listIdentity(q)));
  // Only a cursor we sealed for this list opens; its shape is checked anyway, so that nothing
  // but a start key of this very partition can ever reach the Query (DynamoDB would answer 500).
  if (!values || values.length !== rest.length) {
    throw new BadRequest('cursor is not valid for this list', [{ path: 'query.cursor', message: 'unknown cursor' }]);
  }
  return { ...Object.fromEntries(rest.map((a, i) => [a, values[i]!])), [pk]: q.partition } as Key;
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
 * the item after them (undefined when the offset is 0). Page N by number costs N-1 pages of keys;
 * a cursor costs nothing extra, which is why lists also hand out cursors.
 */
async function skip(q: ListQuery, offset: number): Promise<Key | 'end' | undefined> {
  if (offset <= 0) return undefined;
  const { all } = keyAttributes(q.index);
  const input = baseInput(q);
  const names = { ...input.ExpressionAttributeNames };
  all.forEach((a, i) => (names[`#k${i}`] = a));
  let start: Key | undefined;
  let remaining = offset;
  for (;;) {
    const out = await ddb().send(
      new QueryCommand({
        ...input,
        ExpressionAttributeNames: names,
        ProjectionExpression: all.map((_, i) => `#k${i}`).join(', '),
        ExclusiveStartKey: start,
        Limit: q.filter ? undefined : Math.min(remaining, 1000),
      }),
    );
    const items = out.Items ?? [];
    if (items.length >= remaining) return keyOf(items[remaining - 1]!, all);
    remaining -= items.length;
    if (!out.LastEvaluatedKey) return 'end';
    start = out.LastEvaluatedKey as Key;
  }
}

/** Reads up to `limit` matching items from `start` (all when limit is undefined). */
async function collect(q: ListQuery, start: Key | undefined, limit?: number): Promise<{ items: Item[]; more: boolean }> {
  const input = baseInput(q);
  const items: Item[] = [];
  let weight = 0;
  let next = start;
  for (;;) {
    const want = limit === undefined ? undefined : limit + 1 - items.length;
    const out = await ddb().send(new QueryCommand({ ...input, ExclusiveStartKey: next, Limit: q.filter ? undefined : want }));
    const got = (out.Items ?? []) as Item[];
    if (q.budget) {
      // The extra item read to learn whether there is a next page is not part of the answer.
      const counted = limit === undefined ? got : got.slice(0, Math.max(0, limit - items.length));
      for (const item of counted) weight += q.budget.sizeOf(item);
      if (weight > q.budget.bytes) throw q.budget.exceeded();
    }
    items.push(...got);
    if (limit !== undefined && items.length > limit) return { items: items.slice(0, limit), more: true };
    if (!out.LastEvaluatedKey) return { items, more: false };
    next = out.LastEvaluatedKey as Key;
  }
}

/** One page of a list, by page number, by cursor, or all of it; never a Scan. */
export async function listPage(q: ListQuery, req: PageRequest): Promise<ListPage<Item>> {
  const { all } = keyAttributes(q.index);
  if (req.mode === 'all') return { items: (await collect(q, undefined)).items };
  let start: Key | undefined;
  if (req.mode === 'cursor') start = await decodeCursor(req.cursor, q);
  else {
    const skipped = await skip(q, req.offset);
    if (skipped === 'end') return { items: [] };
    start = skipped;
  }
  const { items, more } = await collect(q, start, req.size);
  const last = items[items.length - 1];
  return { items, nextCursor: more && last ? await encodeCursor(q, keyOf(last, all), all) : undefined };
}

/** Number of matching items, for filtered lists whose total has no maintained counter. */
export async function countMatching(q: ListQuery): Promise<number> {
  let total = 0;
  let start: Key | undefined;
  for (;;) {
    const out = await ddb().send(new QueryCommand({ ...baseInput(q), Select: 'COUNT', ExclusiveStartKey: start }));
    total += out.Count ?? 0;
    if (!out.LastEvaluatedKey) return total;
    start = out.LastEvaluatedKey as Key;
  }
}
