import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import { getItem, isConditionFailure } from './items';
import { keys } from './keys';
import { keyedHash } from '../domain/service-keys';
import { replyKey, seal, unseal } from '../domain/sealed';
import { serviceKey } from '../secrets';

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
 * The record is stored under a keyed hash (HMAC with the service key) of the Idempotency-Key,
 * with a keyed fingerprint of the request, and the reply sealed with a key derived from both the
 * service key and the Idempotency-Key: replies can carry secrets shown once, and request bodies
 * passwords, and the table alone reveals neither, even for a guessable Idempotency-Key.
 */
const recordKey = async (scope: string, key: string) => keys.idempotency(scope, keyedHash(await serviceKey('idempotency record'), scope, key));

/** The request's fingerprint: HMAC of its route scope, path, query and body (a plain hash would let the table test password guesses). */
async function fingerprint(scope: string, request: readonly string[]): Promise<string> {
  return keyedHash(await serviceKey('idempotency fingerprint'), scope, ...request);
}

const sealingKey = async (scope: string, key: string) => replyKey(await serviceKey('idempotent reply'), key, scope);

/**
 * Claims an Idempotency-Key with a conditional Put, so of concurrent duplicates exactly one runs.
 * `request` is what must repeat for a replay (path, query, body). The record expires by TTL after a day.
 */
export async function claimIdempotencyKey(scope: string, key: string, request: readonly string[]): Promise<Claim> {
  const k = await recordKey(scope, key);
  const requestHash = await fingerprint(scope, request);
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
  if (!item) return claimIdempotencyKey(scope, key, request);
  if (item.request_hash !== requestHash) return { kind: 'mismatch' };
  if (item.state !== 'done') return { kind: 'in-progress' };
  const opened = typeof item.sealed === 'string' ? unseal(item.sealed, await sealingKey(scope, key), scope) : undefined;
  // Unreadable (altered, or sealed by another key): treat as a key in use rather than guess.
  if (opened === undefined) return { kind: 'in-progress' };
  return { kind: 'replay', response: JSON.parse(opened) as StoredResponse };
}

export async function completeIdempotencyKey(scope: string, key: string, response: StoredResponse): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: await recordKey(scope, key),
      UpdateExpression: 'SET #s = :done, #r = :sealed',
      ExpressionAttributeNames: { '#s': 'state', '#r': 'sealed' },
      ExpressionAttributeValues: { ':done': 'done', ':sealed': seal(JSON.stringify(response), await sealingKey(scope, key), scope) },
    }),
  );
}

/** A request that failed created nothing, so its key is released for a retry. */
export async function releaseIdempotencyKey(scope: string, key: string): Promise<void> {
  await ddb().send(new DeleteCommand({ TableName: tableName(), Key: await recordKey(scope, key) }));
}
