/**
 * Idempotency-Key (contract §3): a retry with the same key and request replays the first answer;
 * the same key with another request is 422; a duplicate that arrives while the first still runs
 * is 409 (the http middleware maps each outcome).
 *
 * The record is stored under a keyed hash (HMAC with the service key) of the Idempotency-Key,
 * with a keyed fingerprint of the request, and the reply sealed with a key derived from both the
 * service key and the Idempotency-Key: replies can carry secrets shown once, and request bodies
 * passwords, and the table alone reveals neither, even for a guessable Idempotency-Key. The reply
 * is gzipped before it is sealed and kept whole whatever its size (parts beside the record), so
 * every acknowledged create replays exactly.
 */
import { openReply, packReply } from '../domain/idempotent-reply';
import { keyedHash } from '../domain/service-keys';
import { replyKey, unseal } from '../domain/sealed';
import { serviceKey } from '../secrets';
import {
  claimRecord,
  completeRecord,
  completeRecordWithoutReply,
  removeRecord,
  loadRecord,
  loadReplyParts,
  REPLY_PART_BYTES,
  type IdempotencyRecord,
} from '../store/idempotency';

export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'mismatch' }
  | { kind: 'in-progress' }
  /** The first request succeeded but its reply could not be kept (contract §3). */
  | { kind: 'not-replayable' };

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
  const record = await loadRecord(scope, id);
  if (!record) return claimIdempotencyKey(scope, key, request);
  if (record.request_hash !== requestHash) return { kind: 'mismatch' };
  if (record.state !== 'done') return { kind: 'in-progress' };
  if (record.parts === 0) return { kind: 'not-replayable' };
  const opened = await openRecord(scope, key, record);
  // Unreadable (altered, or sealed by another key): treat as a key in use rather than guess.
  if (opened === undefined) return { kind: 'in-progress' };
  return { kind: 'replay', response: JSON.parse(opened) as StoredResponse };
}

/** The kept reply's text: its parts opened together (text in records of before replies were kept as bytes). */
async function openRecord(scope: string, key: string, record: IdempotencyRecord): Promise<string | undefined> {
  const { sealed } = record;
  if (sealed === undefined) return undefined;
  if (typeof sealed === 'string') return unseal(sealed, await sealingKey(scope, key), scope);
  const rest = record.parts > 1 ? await loadReplyParts(scope, await recordId(scope, key), record.parts) : [];
  return rest ? openReply([sealed, ...rest], await sealingKey(scope, key), scope) : undefined;
}

export async function completeIdempotencyKey(scope: string, key: string, response: StoredResponse): Promise<void> {
  const parts = packReply(JSON.stringify(response), await sealingKey(scope, key), scope, REPLY_PART_BYTES);
  await completeRecord(scope, await recordId(scope, key), parts);
}

/** The request succeeded but its reply could not be kept: a retry is told so and runs nothing. */
export async function completeIdempotencyKeyWithoutReply(scope: string, key: string): Promise<void> {
  await completeRecordWithoutReply(scope, await recordId(scope, key));
}

/** A request that failed created nothing, so its key is released for a retry. */
export async function releaseIdempotencyKey(scope: string, key: string): Promise<void> {
  await removeRecord(scope, await recordId(scope, key));
}
