import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  GetCommand,
  QueryCommand,
  UpdateCommand,
  type BatchGetCommandOutput,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { STAMP_ATTRS } from './audit-stamp';
import { sleep } from './backoff';
import { mapLimit } from '../../lib/concurrency';
import { ddb, tableName } from './client';
import type { StorageKey } from './storage-key';
import { settleWriteUnit } from './write-unit';
import { INDEXES, TABLE_KEYS } from './table';

const STORAGE_ATTRS = new Set<string>([
  TABLE_KEYS.partitionKey,
  TABLE_KEYS.sortKey,
  'entity',
  ...INDEXES.flatMap((i) => [i.partitionKey, i.sortKey]),
  // Who wrote the item (audit-stamp.ts): the change feed reads it, answers never show it.
  ...STAMP_ATTRS,
]);

/** The stored item without its storage keys and without the named private attributes. */
export function stripItem<T>(item: Record<string, unknown>, privateAttrs: readonly string[] = []): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) {
    if (!STORAGE_ATTRS.has(k) && !privateAttrs.includes(k)) out[k] = v;
  }
  return out as T;
}

export async function getItem(key: StorageKey, consistent = false) {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: consistent }));
  return out.Item as Record<string, unknown> | undefined;
}

export function isConditionFailure(e: unknown): e is ConditionalCheckFailedException {
  return e instanceof ConditionalCheckFailedException;
}

/**
 * One conditional UpdateItem (through `client`, ddb() unless told): the item as its ReturnValues
 * give it, or, when the condition failed, the item as it was (asked for with
 * ReturnValuesOnConditionCheckFailure: ALL_OLD; undefined when there was none).
 */
export async function conditionalUpdate(
  input: UpdateCommandInput,
  client: DynamoDBDocumentClient = ddb(),
): Promise<{ ok: true; item: Record<string, unknown> } | { ok: false; old: Record<string, unknown> | undefined }> {
  // A request's unit of its write limit cannot ride on an UpdateItem: it is spent first (write-unit.ts).
  await settleWriteUnit();
  try {
    const out = await client.send(new UpdateCommand(input));
    return { ok: true, item: out.Attributes ?? {} };
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
    // The failure's item comes in the wire form ({N: "3"}), not the document form.
    return { ok: false, old: e.Item ? unmarshall(e.Item) : undefined };
  }
}

/**
 * BatchGetItem over any number of keys (100 a call, 8 calls at a time, unprocessed keys retried); order not kept.
 * `attributes` reads only those (a large item's body stays behind).
 */
export async function batchGet(keys: StorageKey[], consistent = false, attributes?: readonly string[]): Promise<Record<string, unknown>[]> {
  const table = tableName();
  const out: Record<string, unknown>[] = [];
  const projection = attributes?.length
    ? {
        ProjectionExpression: attributes.map((_, i) => `#a${i}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries(attributes.map((a, i) => [`#a${i}`, a])),
      }
    : {};
  const starts = Array.from({ length: Math.ceil(keys.length / 100) }, (_, n) => n * 100);
  // Calls side by side: an organisation's export reads ten thousand keys this way.
  await mapLimit(starts, 8, async (i) => {
    let request: Record<string, { Keys: Record<string, unknown>[]; ConsistentRead?: boolean }> | undefined = {
      [table]: { Keys: keys.slice(i, i + 100), ConsistentRead: consistent, ...projection },
    };
    for (let attempt = 0; request && Object.keys(request).length; attempt++) {
      const res: BatchGetCommandOutput = await ddb().send(new BatchGetCommand({ RequestItems: request }));
      out.push(...((res.Responses?.[table] ?? []) as Record<string, unknown>[]));
      request = res.UnprocessedKeys as typeof request;
      if (request && Object.keys(request).length) await sleep(Math.min(200, 10 * 2 ** attempt));
    }
  });
  return out;
}

/**
 * Every item one Query names, followed page by page: for reads that need the whole range (an
 * API's parts, a key's partition, an hour range of counters), where a list would need paging.
 */
export async function queryAll(input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await ddb().send(new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: start }));
    items.push(...((out.Items ?? []) as Record<string, unknown>[]));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * Every item an index partition of GSI1 lists, read again by key consistently (an index answers a
 * moment late, and may still list what is gone): what a whole organisation's export reads.
 */
export async function loadListed(indexPartition: string): Promise<Record<string, unknown>[]> {
  const rows = await queryAll({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': indexPartition },
    ProjectionExpression: 'PK, SK',
  });
  return batchGet(
    rows.map((r) => ({ PK: String(r.PK), SK: String(r.SK) })),
    true,
  );
}
