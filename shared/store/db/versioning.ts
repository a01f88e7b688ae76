import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { NotFound, PreconditionFailed } from '../../errors';
import { ddb, tableName } from './client';
import { getItem, isConditionFailure } from './items';
import type { StorageKey } from './storage-key';

type Key = StorageKey;
type Item = Record<string, unknown>;

/**
 * Optimistic locking (contract §3). With `ifMatch` the write succeeds only on that version
 * (412 otherwise); without it the last write wins, still guarded so a concurrent writer is never
 * silently undone between our read and our write. Answers the new version.
 */
export async function replaceVersioned(key: Key, item: Item, ifMatch: number | undefined, notFound: () => NotFound): Promise<number> {
  for (;;) {
    let expected = ifMatch;
    if (expected === undefined) {
      const current = await getItem(key, true);
      if (!current) throw notFound();
      expected = Number(current.version ?? 0);
    }
    try {
      await ddb().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...item, ...key, version: expected + 1 },
          ConditionExpression: 'attribute_exists(PK) AND version = :v',
          ExpressionAttributeValues: { ':v': expected },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return expected + 1;
    } catch (e) {
      if (!isConditionFailure(e)) throw e;
      if (!e.Item) throw notFound();
      if (ifMatch !== undefined) throw new PreconditionFailed();
      // Without If-Match another writer got in between: read again and retry.
    }
  }
}

/** Deletes an item, honouring If-Match; 404 when absent. Answers the deleted item. */
export async function deleteVersioned(key: Key, ifMatch: number | undefined, notFound: () => NotFound): Promise<Item> {
  try {
    const out = await ddb().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: key,
        ConditionExpression: ifMatch === undefined ? 'attribute_exists(PK)' : 'attribute_exists(PK) AND version = :v',
        ExpressionAttributeValues: ifMatch === undefined ? undefined : { ':v': ifMatch },
        ReturnValues: 'ALL_OLD',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return out.Attributes as Item;
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
    if (!e.Item) throw notFound();
    throw new PreconditionFailed();
  }
}
