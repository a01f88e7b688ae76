import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import { getItem, isConditionFailure } from './items';
import { keys } from './keys';

const TTL_SECONDS = 24 * 3600;

export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'mismatch' }
  | { kind: 'in-progress' };

/**
 * Claims an Idempotency-Key with a conditional Put, so of concurrent duplicates exactly one runs.
 * The record expires by TTL after a day.
 */
export async function claimIdempotencyKey(scope: string, key: string, requestHash: string): Promise<Claim> {
  const k = keys.idempotency(scope, key);
  const now = Math.floor(Date.now() / 1000);
  try {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...k, entity: 'idempotency', state: 'pending', request_hash: requestHash, expires_at: now + TTL_SECONDS },
        // An expired record (TTL deletes lazily) counts as absent.
        ConditionExpression: 'attribute_not_exists(PK) OR expires_at < :now',
        ExpressionAttributeValues: { ':now': now },
      }),
    );
    return { kind: 'claimed' };
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
  }
  const item = await getItem(k, true);
  if (!item) return claimIdempotencyKey(scope, key, requestHash);
  if (item.request_hash !== requestHash) return { kind: 'mismatch' };
  if (item.state !== 'done') return { kind: 'in-progress' };
  return { kind: 'replay', response: item.response as StoredResponse };
}

export async function completeIdempotencyKey(scope: string, key: string, response: StoredResponse): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.idempotency(scope, key),
      UpdateExpression: 'SET #s = :done, #r = :resp',
      ExpressionAttributeNames: { '#s': 'state', '#r': 'response' },
      ExpressionAttributeValues: { ':done': 'done', ':resp': response },
    }),
  );
}

/** A request that failed created nothing, so its key is released for a retry. */
export async function releaseIdempotencyKey(scope: string, key: string): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: tableName(), Key: keys.idempotency(scope, key) }));
}
