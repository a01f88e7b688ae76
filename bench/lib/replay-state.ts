/**
 * The per-route floor replays a route's writes onto the state the route met (bench/scenarios/routes.ts).
 * Replayed onto what the route left, a create finds its new id taken and a versioned write finds
 * its version moved, so the floor measured a refused write, which DynamoDB answers sooner than a
 * committed one. Before each replay the items the route wrote are put back as they were.
 */
import { type AttributeValue, DeleteItemCommand, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DynamoCall } from '../../infra/local/emulator/aws-endpoint';
import { TABLE_KEYS } from '../../shared/store/db/table';

type Item = Record<string, AttributeValue>;

/** An item a route's call wrote: its table and key, and whether the write proved it did not exist before. */
export interface Written {
  table: string;
  key: Item;
  created: boolean;
}

/** The items as they were before a route's call: undefined where there was none. */
export type Before = Map<string, Item | undefined>;

const idOf = (w: Pick<Written, 'table' | 'key'>) => `${w.table} ${JSON.stringify(w.key)}`;
const keyOf = (item: Item): Item => ({
  [TABLE_KEYS.partitionKey]: item[TABLE_KEYS.partitionKey]!,
  [TABLE_KEYS.sortKey]: item[TABLE_KEYS.sortKey]!,
});
/** A put that succeeded under this condition created its item (`(...) AND guard` is how versioned writes wrap one). */
const CREATES = new RegExp(`^\\(?attribute_not_exists\\(${TABLE_KEYS.partitionKey}\\)\\)?(?: AND |$)`);

interface WireWrite {
  TableName: string;
  Item?: Item;
  Key?: Item;
  ConditionExpression?: string;
}

/** What a route's calls wrote, each item once (refused calls wrote nothing). */
export function writtenBy(calls: readonly DynamoCall[]): Written[] {
  const out = new Map<string, Written>();
  const add = (w: WireWrite, kind: 'put' | 'change') => {
    const written = {
      table: w.TableName,
      key: kind === 'put' ? keyOf(w.Item!) : w.Key!,
      created: kind === 'put' && CREATES.test(w.ConditionExpression ?? ''),
    };
    if (!out.has(idOf(written))) out.set(idOf(written), written);
  };
  for (const c of calls) {
    if (c.status !== 200) continue;
    const body = JSON.parse(c.body);
    if (c.operation === 'PutItem') add(body, 'put');
    if (c.operation === 'UpdateItem' || c.operation === 'DeleteItem') add(body, 'change');
    if (c.operation === 'TransactWriteItems')
      for (const t of body.TransactItems as Array<Record<string, WireWrite>>) {
        if (t.Put) add(t.Put, 'put');
        else if (t.Update ?? t.Delete) add((t.Update ?? t.Delete)!, 'change');
      }
    if (c.operation === 'BatchWriteItem')
      for (const [TableName, requests] of Object.entries(body.RequestItems as Record<string, Array<Record<string, WireWrite>>>))
        for (const r of requests) r.PutRequest ? add({ ...r.PutRequest, TableName }, 'put') : add({ ...r.DeleteRequest!, TableName }, 'change');
  }
  return [...out.values()];
}

/** The items at these keys now (read consistently), to put back later. */
export async function readBefore(client: DynamoDBDocumentClient, keys: readonly Written[]): Promise<Before> {
  const items = await Promise.all(
    keys.map((w) => client.send(new GetItemCommand({ TableName: w.table, Key: w.key, ConsistentRead: true })).then((r) => r.Item)),
  );
  return new Map(keys.map((w, i) => [idOf(w), items[i]]));
}

/**
 * Puts back what `before` holds of the items a route wrote, and deletes those it created. An item
 * `before` did not read and the route did not provably create is left as the route wrote it; the
 * scenario reports a replay that is refused for that.
 */
export async function putBack(client: DynamoDBDocumentClient, before: Before, written: readonly Written[]): Promise<void> {
  await Promise.all(
    written.map((w) => {
      const was = before.get(idOf(w));
      if (was) return client.send(new PutItemCommand({ TableName: w.table, Item: was }));
      if (before.has(idOf(w)) || w.created) return client.send(new DeleteItemCommand({ TableName: w.table, Key: w.key }));
      return undefined;
    }),
  );
}
