/** The counter's part of a key write (or an organisation session's): reset it, or make it when missing. */
import { renewsAt } from '../../domain/quota';
import { tableName } from '../db/client';
import type { StorageKey } from '../db/storage-key';
import type { TxItem } from '../db/transactions';

/**
 * A reset met a sharded counter: the key's store folds the shards back (shards.ts demoteCounter)
 * and runs the write again. An internal signal, never an answer.
 */
export class CounterSharded extends Error {
  constructor(readonly head: StorageKey) {
    super('the live quota is sharded');
  }
}

/**
 * Transaction item that resets a live quota: nothing used, a window starting now. The rate
 * window is left as it is (a reset is about the quota). A sharded counter fails it with
 * CounterSharded.
 */
export function resetQuotaItem(key: StorageKey, renewalRate: number | undefined, now: number): TxItem {
  return {
    op: {
      Update: {
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET entity = :e, used = :zero, renews = :r',
        ConditionExpression: 'attribute_not_exists(shard_gen)',
        ExpressionAttributeValues: { ':e': 'live_quota', ':zero': 0, ':r': renewsAt(now, renewalRate) },
      },
    },
    onConditionFail: () => new CounterSharded(key),
  };
}

/** Transaction item that creates the live quota only when it is missing (no reset). */
export function ensureQuotaItem(key: StorageKey, renewalRate: number | undefined, now: number): TxItem {
  return {
    op: {
      Update: {
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET entity = :e, used = if_not_exists(used, :zero), renews = if_not_exists(renews, :r)',
        ExpressionAttributeValues: { ':e': 'live_quota', ':zero': 0, ':r': renewsAt(now, renewalRate) },
      },
    },
  };
}
