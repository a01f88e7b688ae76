/**
 * What a test of offboarding compares (contract §9): every item of the table, which of them name
 * an organisation's ids, and how many of each entity.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from '../../shared/store/db/client';

export type Item = Record<string, unknown>;

/**
 * Kinds the run leaves: those that expire by TTL within a day and hold nothing readable of the
 * organisation, and the installation's count of listen paths per host (0 once its APIs are gone).
 */
const LEFT = new Set(['event', 'idempotency', 'idempotency_part', 'hook_cooldown', 'analytics_batch', 'analytics_chunk', 'host_claims', 'sign_in_window']);

/** Every item of the table (a test's own Scan, consistent). */
export async function scanAll(table: string): Promise<Item[]> {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const out = await ddb().send(new ScanCommand({ TableName: table, ConsistentRead: true, ExclusiveStartKey: start }));
    items.push(...((out.Items ?? []) as Item[]));
    start = out.LastEvaluatedKey as Item | undefined;
  } while (start);
  return items;
}

/** Whether an item names any of `ids` (in its keys, its index keys or any attribute). */
export function names(item: Item, ids: readonly string[]): boolean {
  const text = JSON.stringify(item);
  return ids.some((id) => text.includes(id));
}

/** The items an offboarding of the organisation behind `ids` must delete: all that name them, but the run and what it leaves. */
export const ownedBy = (items: readonly Item[], ids: readonly string[]) =>
  items.filter((i) => names(i, ids) && !LEFT.has(String(i.entity)) && i.entity !== 'offboarding');

/** How many items of each entity, sorted by entity. */
export function byEntity(items: readonly Item[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const i of items) counts[String(i.entity)] = (counts[String(i.entity)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([x], [y]) => x.localeCompare(y)));
}
