/**
 * Live quotas and rate windows (contract §6 and §10): what every module of this folder shares.
 * A counter is one item (a key's QUOTA or QUOTA#<api_id>, an organisation's ORGQUOTA) holding the
 * quota window (`used`, `renews`) and the rate window (`rate_start`, `rate_count`) the check
 * enforces; a hot key's counter is split over shards (shards.ts). Counters change only by
 * conditional atomic updates, never read-modify-write; the arithmetic is shared/domain/quota.ts.
 * RELIABILITY.md "Live quotas" tells why they stay exact under any concurrency, and their history.
 *
 * - single-item.ts  the check's spend on one item: one conditional UpdateItem
 * - shards.ts       a hot counter: promote to shards, spend on them, fold them back, read their sum
 * - spend.ts        the check's entry: the head item, or its shards once it is sharded
 * - refund.ts       giving back a unit the organisation's quota refused
 * Here: what they share, and the counter's part of a key write (reset it, or make it when missing).
 */
import { config } from '../../config';
import type { TallyOwner } from '../../domain/billing';
import { renewsAt, type RateWindow } from '../../domain/quota';
import { TtlCache } from '../../lib/ttl-cache';
import { tableName } from '../db/client';
import type { StorageKey } from '../db/storage-key';
import type { TxItem } from '../db/transactions';

/** Where a counter lives: its head item and, once sharded, its shards in the same partition. */
export interface CounterRef {
  head: StorageKey;
  /** Shard i's key; absent for a counter that is never sharded (an organisation's). */
  shard?: (i: number) => StorageKey;
  /** The sort-key prefix all its shards share (for one Query). */
  shardPrefix?: string;
}

/** The limits in force for one spend on a counter. */
export interface CounterLimits {
  /** quota_max; at or below 0 unlimited. */
  max: number;
  renewalRate: number;
  /** The fixed rate window this request counts in; null without a rate limit. */
  rate: RateWindow | null;
  /**
   * Whose request an allowed spend is, when it is the request's last spend: the write then
   * counts it in the usage figures (shared/domain/billing.ts) as well.
   */
  tally?: TallyOwner;
}

/** A counter's live figures as reads show them. */
export interface LiveQuota {
  used: number;
  renews: number;
}

/** What a refund needs to find the unit it gives back. */
export interface Receipt {
  item: StorageKey;
  renews: number;
  rateStart?: number;
  gen?: string;
}

export type Spend =
  | {
      ok: true;
      /** Units spent in the window with this one (over all shards: an estimate when sharded). */
      used: number;
      renews: number;
      receipt: Receipt;
    }
  | Refused;

/**
 * A refusal, with the end of the window that refused: how long a spent shard stays spent, and
 * the caller's Retry-After.
 */
export type Refused = { ok: false; reason: 'QuotaExceeded' | 'RateLimitExceeded'; until: number };

/** Shards a hot counter is split into: 8 × DynamoDB's per-item ceiling, 8 writes to drain it. */
export const HOT_COUNTER_SHARDS = 8;

/** A sharded counter's layout: how many shards, and the generation they carry. */
export interface Layout {
  n: number;
  gen: string;
}

/** Process-local knowledge, each entry at most CACHE_SECONDS old: which counters are sharded... */
export const layouts = new TtlCache<Layout>(() => config().cacheMs);
/**
 * ...and which counter items (shards, and heads: spend.ts) are spent until their window ends
 * (value: that end, epoch seconds).
 */
export const spentShards = new TtlCache<number>(() => config().cacheMs);

/** What this process remembered of the counters of one partition (one key's, every scope). */
export function forgetCounterHintsOf(partition: string): void {
  // Both are named by an item's refName first (PK|SK...).
  layouts.deletePrefixed(`${partition}|`);
  spentShards.deletePrefixed(`${partition}|`);
}

export const refName = (key: StorageKey) => `${key.PK}|${key.SK}`;

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
