/**
 * Idempotency-Key (contract §3): a retry with the same key and request replays the first answer;
 * the same key with another request is 422; a duplicate that arrives while the first still runs
 * is 409 (the http middleware maps each outcome).
 *
 * The record is stored under a keyed hash (HMAC with the service key) of the Idempotency-Key,
 * with a keyed fingerprint of the request, and the reply sealed with a key derived from both the
 * service key and the Idempotency-Key: replies can carry secrets shown once, and request bodies
 * passwords, and the table alone reveals neither, even for a guessable Idempotency-Key.
 */
import { keyedHash } from '../domain/service-keys';
import { replyKey, seal, unseal } from '../domain/sealed';
import { serviceKey } from '../secrets';
import { claimRecord, completeRecord, deleteRecord, readRecord } from '../store/idempotency';

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

const recordId = async (scope: string, key: string) => keyedHash(await serviceKey('idempotency record'), scope, key);

/** The request's fingerprint: HMAC of its route scope, path, query and body (a plain hash would let the table test password guesses). */
async function fingerprint(scope: string, request: readonly string[]): Promise<string> {
  return keyedHash(await serviceKey('idempotency fingerprint'), scope, ...request);
}

const sealingKey = async (scope: string, key: string) => replyKey(await serviceKey('idempotent reply'), key, scope);

/**
 * Claims an Idempotency-Key, so of concurrent duplicates exactly one runs. `request` is what must
 * repeat for a replay (path, query, body).
 */
export async function claimIdempotencyKey(scope: string, key: string, request: readonly string[]): Promise<Claim> {
  const id = await recordId(scope, key);
  const requestHash = await fingerprint(scope, request);
  if (await claimRecord(scope, id, requestHash)) return { kind: 'claimed' };
  const record = await readRecord(scope, id);
  if (!record) return claimIdempotencyKey(scope, key, request);
  if (record.request_hash !== requestHash) return { kind: 'mismatch' };
  if (record.state !== 'done') return { kind: 'in-progress' };
  const opened = record.sealed !== undefined ? unseal(record.sealed, await sealingKey(scope, key), scope) : undefined;
  // Unreadable (altered, or sealed by another key): treat as a key in use rather than guess.
  if (opened === undefined) return { kind: 'in-progress' };
  return { kind: 'replay', response: JSON.parse(opened) as StoredResponse };
}

export async function completeIdempotencyKey(scope: string, key: string, response: StoredResponse): Promise<void> {
  await completeRecord(scope, await recordId(scope, key), seal(JSON.stringify(response), await sealingKey(scope, key), scope));
}

/** A request that failed created nothing, so its key is released for a retry. */
export async function releaseIdempotencyKey(scope: string, key: string): Promise<void> {
  await deleteRecord(scope, await recordId(scope, key));
}
