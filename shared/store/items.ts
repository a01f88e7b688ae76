import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import { INDEXES, TABLE_KEYS } from './table';

const STORAGE_ATTRS = new Set<string>([
  TABLE_KEYS.partitionKey,
  TABLE_KEYS.sortKey,
  'entity',
  ...INDEXES.flatMap((i) => [i.partitionKey, i.sortKey]),
]);

/** The stored item without its storage keys and without the named private attributes. */
export function stripItem<T>(item: Record<string, unknown>, privateAttrs: readonly string[] = []): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) {
    if (!STORAGE_ATTRS.has(k) && !privateAttrs.includes(k)) out[k] = v;
  }
  return out as T;
}

export async function getItem(key: { PK: string; SK: string }, consistent = false) {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: consistent }));
  return out.Item as Record<string, unknown> | undefined;
}

export function isConditionFailure(e: unknown): e is ConditionalCheckFailedException {
  return e instanceof ConditionalCheckFailedException;
}

/** A maintained counter's value (0 when the organisation has none of that kind yet). */
export async function readCounter(key: { PK: string; SK: string }): Promise<number> {
  const item = await getItem(key, true);
  return typeof item?.n === 'number' ? item.n : 0;
}
