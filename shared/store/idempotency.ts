/**
 * Idempotency-Key records: one item per (route scope, keyed hash of the key), claimed by a
 * conditional Put so that of concurrent duplicates exactly one runs, and expired by TTL after a
 * day. The kept reply rides in the record; what does not fit goes into reply parts beside it
 * (same partition, written before the record is marked done, expiring with it). What the record
 * holds (keyed fingerprint, sealed reply) is decided by shared/services/idempotency.ts; this
 * module only stores it.
 */
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './db/client';
import { defineEntity } from './db/entity';
import { getItem, isConditionFailure } from './db/items';
import { MAX_ITEM_BYTES } from './db/item-size';
import type { StorageKey } from './db/storage-key';

const TTL_SECONDS = 24 * 3600;

/**
 * Bytes of reply one item holds: DynamoDB's 400 KB less 10 KB for the rest of the item (its key,
 * at most a route scope and a 64-hex hash, and a few short attributes).
 */
export const REPLY_PART_BYTES = MAX_ITEM_BYTES - 10 * 1024;

/** `recordId` is already a keyed hash: the clear Idempotency-Key never reaches the table. */
const idempotencyKey = (scope: string, recordId: string): StorageKey => ({ PK: `IDEMP#${scope}#${recordId}`, SK: 'IDEMP' });
/** Part `n` (1, 2, ...) of a reply larger than the record holds; part 0 is in the record. */
const replyPartKey = (scope: string, recordId: string, n: number): StorageKey => ({ PK: `IDEMP#${scope}#${recordId}`, SK: `REPLY#${n}` });

// Keyed here; written by the functions below.
defineEntity({ name: 'idempotency', key: idempotencyKey });
defineEntity({ name: 'idempotency_part', key: replyPartKey });

export interface IdempotencyRecord {
  request_hash: string;
  state: 'pending' | 'done';
  /** The reply's first part (bytes); text in records written before replies were kept as bytes. */
  sealed?: string | Uint8Array;
  /** How many parts the reply has, the record's own included; 0 when done without a kept reply. */
  parts: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Claims the record (state pending); false when one exists that has not expired. */
export async function claimRecord(scope: string, recordId: string, requestHash: string): Promise<boolean> {
  const now = nowSeconds();
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
export async function loadRecord(scope: string, recordId: string): Promise<IdempotencyRecord | undefined> {
  const item = await getItem(idempotencyKey(scope, recordId), true);
  if (!item) return undefined;
  const sealed = item.sealed;
  return {
    request_hash: String(item.request_hash),
    state: item.state === 'done' ? 'done' : 'pending',
    ...(typeof sealed === 'string' || sealed instanceof Uint8Array ? { sealed } : {}),
    parts: typeof item.parts === 'number' ? item.parts : 1,
  };
}

/** Parts 1..count-1 of a reply, in order; undefined when one is missing (expired by TTL). */
export async function loadReplyParts(scope: string, recordId: string, count: number): Promise<Uint8Array[] | undefined> {
  const items = await Promise.all(Array.from({ length: count - 1 }, (_, i) => getItem(replyPartKey(scope, recordId, i + 1), true)));
  const parts = items.map((item) => item?.data);
  return parts.every((p): p is Uint8Array => p instanceof Uint8Array) ? parts : undefined;
}

/**
 * Marks the record done with the sealed reply a replay answers: the parts beyond the first are
 * written first, so a record marked done always has every part.
 */
export async function completeRecord(scope: string, recordId: string, parts: readonly Uint8Array[]): Promise<void> {
  const expires = nowSeconds() + TTL_SECONDS;
  await Promise.all(
    parts
      .slice(1)
      .map((data, i) =>
        ddb().send(
          new PutCommand({ TableName: tableName(), Item: { ...replyPartKey(scope, recordId, i + 1), entity: 'idempotency_part', data, expires_at: expires } }),
        ),
      ),
  );
  await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: idempotencyKey(scope, recordId),
      UpdateExpression: 'SET #s = :done, #r = :sealed, parts = :parts',
      ExpressionAttributeNames: { '#s': 'state', '#r': 'sealed' },
      ExpressionAttributeValues: { ':done': 'done', ':sealed': parts[0] ?? new Uint8Array(), ':parts': parts.length },
    }),
  );
}

/**
 * Marks the record done without a reply (keeping the reply failed after the request succeeded):
 * a retry then learns that it succeeded instead of running again.
 */
export async function completeRecordWithoutReply(scope: string, recordId: string): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: idempotencyKey(scope, recordId),
      UpdateExpression: 'SET #s = :done, parts = :none REMOVE #r',
      ExpressionAttributeNames: { '#s': 'state', '#r': 'sealed' },
      ExpressionAttributeValues: { ':done': 'done', ':none': 0 },
    }),
  );
}

/** Removes the record, so the key may be used again. */
export async function removeRecord(scope: string, recordId: string): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: tableName(), Key: idempotencyKey(scope, recordId) }));
}
