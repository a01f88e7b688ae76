/** The ledger of analytics batches: a batch id's claim, and a marker per applied transaction, so a retried batch counts once. */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { CounterDelta } from '../domain/analytics';
import type { UsageDelta } from '../domain/usage';
import { randomHex } from '../lib/hashing';
import { Unprocessable } from '../errors';
import { ddb, tableName } from './db/client';
import { getItem, isConditionFailure, queryAll } from './db/items';
import type { StorageKey } from './db/storage-key';
import { TTL_ATTRIBUTE } from './db/table';
import { defineEntity } from './db/entity';
import { putOp, transactWrite } from './db/transactions';
import { counterUpdate } from './key-activity';
import { usageUpdate } from './api-usage';

/** How long a batch id is remembered (a retry after that counts again), like an Idempotency-Key. */
const BATCH_TTL_SECONDS = 24 * 3600;

/**
 * Batch bookkeeping: the batch item holds what the first attempt decided (its records'
 * fingerprint, which records it refused, and a run id), and each applied transaction leaves a
 * marker under the run id. A new run id after the batch expires keeps lingering markers (TTL
 * deletes lazily) from hiding a reused id's chunks.
 */
const batchKeys = {
  batch: (batchId: string): StorageKey => ({ PK: `ANBATCH#${batchId}`, SK: 'BATCH' }),
  chunk: (batchId: string, run: string, n: number): StorageKey => ({ PK: `ANBATCH#${batchId}`, SK: `CHUNK#${run}#${n}` }),
};

export interface BatchClaim {
  run: string;
  refused: number[];
  /** An earlier attempt claimed the batch, so some of its chunks may be applied already. */
  retry: boolean;
}

/**
 * Claims a batch id for these records, or finds the claim of an earlier attempt of the same
 * batch (whose refusals then apply). The same id with other records is 422.
 */
export async function claimBatch(batchId: string, fingerprint: string, refused: number[]): Promise<BatchClaim> {
  const now = Math.floor(Date.now() / 1000);
  const run = randomHex(8);
  try {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...batchKeys.batch(batchId), entity: 'analytics_batch', fingerprint, run, refused, [TTL_ATTRIBUTE]: now + BATCH_TTL_SECONDS },
        // An expired batch (TTL deletes lazily) counts as absent.
        ConditionExpression: 'attribute_not_exists(PK) OR #exp < :now',
        ExpressionAttributeNames: { '#exp': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':now': now },
      }),
    );
    return { run, refused, retry: false };
  } catch (e) {
    if (!isConditionFailure(e)) throw e;
    // Only a retry gets here: one more read to learn what its first attempt decided.
    const old = await getItem(batchKeys.batch(batchId), true);
    if (!old) return claimBatch(batchId, fingerprint, refused);
    if (old.fingerprint !== fingerprint) {
      throw new Unprocessable(`batch_id ${batchId} was already used with other records`, [
        { path: 'body.batch_id', message: 'already used with other records' },
      ]);
    }
    return { run: String(old.run), refused: (old.refused as number[] | undefined) ?? [], retry: true };
  }
}

/** Chunk `n` of the run `run` of a batch: where its marker goes. */
export interface BatchChunk {
  batchId: string;
  run: string;
  n: number;
}

/**
 * Writes one run of counter updates as one transaction. In a batch, the run's marker rides in
 * the same transaction: either the counters and the marker are stored, or neither. A marker that
 * exists already means an earlier attempt applied this run, which is then skipped.
 */
export async function saveChunk(deltas: readonly CounterDelta[] | { usage: readonly UsageDelta[] }, chunk: BatchChunk | undefined): Promise<void> {
  // A run holds either key counters or API usage counters (docs/reference/limits.md: one more ADD per (API, hour)).
  const updates = 'usage' in deltas ? deltas.usage.map(usageUpdate) : deltas.map(counterUpdate);
  if (!chunk) return transactWrite(updates);
  const marker = batchKeys.chunk(chunk.batchId, chunk.run, chunk.n);
  const expires = Math.floor(Date.now() / 1000) + BATCH_TTL_SECONDS;
  try {
    await transactWrite([{ op: putOp({ ...marker, entity: 'analytics_chunk', [TTL_ATTRIBUTE]: expires }, 'attribute_not_exists(PK)') }, ...updates]);
  } catch (e) {
    if (e instanceof TransactionCanceledException && e.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return;
    throw e;
  }
}

/** Chunk numbers of a run that an earlier attempt applied (one Query over the batch's markers). */
export async function loadAppliedChunks(batchId: string, run: string): Promise<Set<number>> {
  const prefix = `CHUNK#${run}#`;
  const markers = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': batchKeys.batch(batchId).PK, ':prefix': prefix },
    ProjectionExpression: 'SK',
    ConsistentRead: true,
  });
  return new Set(markers.map((it) => Number(String(it.SK).slice(prefix.length))));
}

// Keyed here; written by the functions of this module.
defineEntity({ name: 'analytics_batch', key: batchKeys.batch });
defineEntity({ name: 'analytics_chunk', key: batchKeys.chunk });
