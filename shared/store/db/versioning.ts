import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ifMatchAllows, onlyVersion, type IfMatch } from '../../domain/if-match';
import { NotFound, PreconditionFailed } from '../../errors';
import { ddb, tableName } from './client';
import { getItem, isConditionFailure } from './items';
import type { StorageKey } from './storage-key';
import { transactWrite, type TxItem } from './transactions';

type Key = StorageKey;
type Item = Record<string, unknown>;

/** The versioned Put lost to another writer (checks go in a transaction, which has no ALL_OLD to tell). */
class Stale extends PreconditionFailed {}

/**
 * Optimistic locking (contract §3). With `ifMatch` the write succeeds only on a version it
 * allows (412 otherwise); without it the last write wins, still guarded so a concurrent writer is
 * never silently undone between our read and our write. `checks` (conditions on other items, such
 * as "the organisation exists") go into the same transaction. Answers the new version.
 */
export async function replaceVersioned(key: Key, item: Item, ifMatch: IfMatch | undefined, notFound: () => NotFound, checks: TxItem[] = []): Promise<number> {
  for (;;) {
    let expected = onlyVersion(ifMatch);
    if (expected === undefined) {
      const current = await getItem(key, true);
      if (!current) throw notFound();
      expected = Number(current.version ?? 0);
      if (!ifMatchAllows(ifMatch, expected)) throw new PreconditionFailed();
    }
    const put = {
      TableName: tableName(),
      Item: { ...item, ...key, version: expected + 1 },
      ConditionExpression: 'attribute_exists(PK) AND version = :v',
      ExpressionAttributeValues: { ':v': expected },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    };
    try {
      if (checks.length) await transactWrite([...checks, { op: { Put: put }, onConditionFail: (old) => (old ? new Stale() : notFound()) }]);
      else await ddb().send(new PutCommand(put));
      return expected + 1;
    } catch (e) {
      if (e instanceof Stale) {
        if (ifMatch !== undefined) throw new PreconditionFailed();
        continue;
      }
      if (!isConditionFailure(e)) throw e;
      if (!e.Item) throw notFound();
      if (ifMatch !== undefined) throw new PreconditionFailed();
      // Without If-Match another writer got in between: read again and retry.
    }
  }
}

/**
 * The condition a single write puts on the stored `version` for If-Match: none for no header or
 * `*` (the write's own `attribute_exists` covers it), else `version IN (...)`. A list that allows
 * nothing (weak tags only) names -1, a version no object has, so the write fails as a mismatch.
 */
export function versionCondition(ifMatch: IfMatch | undefined): { expression: string; values: Record<string, number> } | undefined {
  if (ifMatch === undefined || ifMatch === '*') return undefined;
  const versions = ifMatch.length > 0 ? ifMatch : [-1];
  const values = Object.fromEntries(versions.map((v, i) => [`:v${i}`, v]));
  return { expression: `version IN (${Object.keys(values).join(', ')})`, values };
}

/** Deletes an item, honouring If-Match; 404 when absent. Answers the deleted item. */
export async function deleteVersioned(key: Key, ifMatch: IfMatch | undefined, notFound: () => NotFound): Promise<Item> {
  const version = versionCondition(ifMatch);
  try {
    const out = await ddb().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: key,
        ConditionExpression: version ? `attribute_exists(PK) AND ${version.expression}` : 'attribute_exists(PK)',
        ExpressionAttributeValues: version?.values,
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
