/**
 * Idempotency-Key records: one item per (route scope, keyed hash of the key), claimed by a
 * conditional Put so that of concurrent duplicates exactly one runs, and expired by TTL after a
 * day. What the record holds (keyed fingerprint, sealed reply) is decided by
 * shared/services/idempotency.ts; this module only stores it.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './db/client';
import { getItem, isConditionFailure } from './db/items';
import type { StorageKey } from './db/storage-key';

const TTL_SECONDS = 24 * 3600;

/** `recordId` is already a keyed hash: the clear Idempotency-Key never reaches the table. */
const idempotencyKey = (scope: string, recordId: string): StorageKey => ({ PK: `IDEMP#${scope}#${recordId}`, SK: 'IDEMP' });

export interface IdempotencyRecord {
  request_hash: string;
  state: 'pending' | 'done';
  sealed?: string;
}

/** Claims the record (state pending); false when one exists that has not expired. */
export async function claimRecord(scope: string, recordId: string, requestHash: string): Promise<boolean> {
  const now = Math.floor(Date.now() / 1000);
  try {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...idempotencyKey(scope, recordId), entity: 'idempotency', state: 'pending', request_hash: requestHash, expires_at: now + TTL_SECONDS },
        // An expired record (TTL deletes lazily) counts as absent.
        ConditionExpression: 'attribute_not_exists(PK) OR expires_at < :now',
        ExpressionAttributeValues: { ':now': now },
      }),
    );
    return true;
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
    return false;
  }
}

/** The record as stored (consistent read), or undefined when it is gone. */
export async function readRecord(scope: string, recordId: string): Promise<IdempotencyRecord | undefined> {
  const item = await getItem(idempotencyKey(scope, recordId), true);
  if (!item) return undefined;
  return {
    request_hash: String(item.request_hash),
    state: item.state === 'done' ? 'done' : 'pending',
    ...(typeof item.sealed === 'string' ? { sealed: item.sealed } : {}),
  };
}

/** Marks the record done with the sealed reply a replay answers. */
export async function completeRecord(scope: string, recordId: string, sealed: string): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: idempotencyKey(scope, recordId),
      UpdateExpression: 'SET #s = :done, #r = :sealed',
      ExpressionAttributeNames: { '#s': 'state', '#r': 'sealed' },
      ExpressionAttributeValues: { ':done': 'done', ':sealed': sealed },
    }),
  );
}

/** Removes the record, so the key may be used again. */
export async function deleteRecord(scope: string, recordId: string): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: tableName(), Key: idempotencyKey(scope, recordId) }));
}
