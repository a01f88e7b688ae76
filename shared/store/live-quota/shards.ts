/**
 * Hot counters. DynamoDB serves about 1,000 writes/s per item: when a counter's write is
 * throttled, the check promotes it to SHARDS. The head item gets `shard_count` n and a fresh
 * `shard_gen`, and n shard items (SHARD#<scope>#<i>, same partition key) take over the counts in
 * one transaction conditioned on the head as read, so no unit is lost or granted: shard i gets
 * shareOf(used, i, n) of the units spent and shareOf(rate_count, i, n) of the rate window, and may
 * spend up to shareOf(quota_max, i, n) units per quota window and shareOf(limit, i, n) per rate
 * window (the shares of any total add up to it). Shards renew their quota windows on one grid
 * (nextOnGrid), so all shards count the same window. A check starts at a random shard and spills
 * over to the next one when a shard is spent or throttled, so it is refused only when every shard
 * refused. The head's own counters are frozen while it is sharded. demoteCounter() folds the
 * shards back into the head exactly; a quota reset of a sharded key demotes it first.
 * RELIABILITY.md "Live quotas" states the bounds this leaves.
 */
import { randomHex } from '../../lib/hashing';
import { isUnlimited, renewsAt, shareOf } from '../../domain/quota';
import { backoff, sleep } from '../db/backoff';
import { tableName } from '../db/client';
import { getItem, queryAll } from '../db/items';
import { transactWrite, type TxItem } from '../db/transactions';
import {
  forgetCounterHintsOf,
  HOT_COUNTER_SHARDS,
  refName,
  spentShards,
  type CounterLimits,
  type CounterRef,
  type Layout,
  type LiveQuota,
  type Spend,
} from './counters';
import { spendOne } from './single-item';

/** The items a promotion or demotion conditioned on changed before it was written: read them again. */
class CountsMoved extends Error {}
const moved = () => new CountsMoved('the counter changed while it was being split or folded');

const COUNTS = ['used', 'renews', 'rate_start', 'rate_count'] as const;

/** A condition that the item still holds exactly what was read (absent attributes absent). */
function unchanged(read: Record<string, unknown> | undefined, prefix: string, also: string[] = []) {
  const values: Record<string, unknown> = {};
  const cond = [...also];
  if (!read) return { cond: ['attribute_not_exists(PK)'], values };
  for (const a of COUNTS) {
    if (read[a] === undefined) cond.push(`attribute_not_exists(${a})`);
    else {
      cond.push(`${a} = :${prefix}${a}`);
      values[`:${prefix}${a}`] = read[a];
    }
  }
  return { cond, values };
}

/**
 * Splits the counter over HOT_COUNTER_SHARDS shards, keeping every unit: one transaction
 * conditioned on the head as read. Answers the layout now in force (another process's, when it
 * promoted first).
 */
export async function promote(ref: CounterRef, limits: CounterLimits, now: number, n = HOT_COUNTER_SHARDS): Promise<Layout> {
  if (!ref.shard) throw new Error('this counter is never sharded');
  for (let attempt = 0; attempt < 10; attempt++) {
    const head = await getItem(ref.head, true);
    if (typeof head?.shard_gen === 'string') return { n: Number(head.shard_count), gen: head.shard_gen };
    const gen = randomHex(8);
    const current = head && Number(head.renews) > now;
    const used = current ? Number(head.used ?? 0) : 0;
    const renews = current ? Number(head.renews) : renewsAt(now, limits.renewalRate);
    const w = limits.rate;
    const rateCurrent = !!w && head?.rate_start !== undefined && Number(head.rate_start) >= w.start;
    const rateCount = rateCurrent ? Number(head!.rate_count ?? 0) : 0;
    const same = unchanged(head, 'h', ['attribute_not_exists(shard_gen)']);
    const items: TxItem[] = [
      {
        op: {
          Update: {
            TableName: tableName(),
            Key: ref.head,
            UpdateExpression: 'SET entity = :e, shard_count = :n, shard_gen = :g',
            ConditionExpression: same.cond.join(' AND '),
            ExpressionAttributeValues: { ':e': 'live_quota', ':n': n, ':g': gen, ...same.values },
          },
        },
        onConditionFail: moved,
      },
      ...Array.from({ length: n }, (_, i) => ({
        op: {
          Put: {
            TableName: tableName(),
            Item: {
              ...ref.shard!(i),
              entity: 'live_quota_shard',
              shard_gen: gen,
              used: shareOf(used, i, n),
              renews,
              ...(rateCurrent ? { rate_start: Number(head!.rate_start), rate_count: shareOf(rateCount, i, n) } : {}),
            },
          },
        },
      })),
    ];
    try {
      await transactWrite(items);
      return { n, gen };
    } catch (e) {
      // The head moved on between the read and the transaction (a spend landed): read again.
      if (!(e instanceof CountsMoved)) throw e;
    }
  }
  throw new Error(`counter ${refName(ref.head)} could not be sharded under contention; try again`);
}

/** A sharded counter's shards of generation `gen`. */
async function readShards(ref: CounterRef, gen: string): Promise<Record<string, unknown>[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': ref.head.PK, ':prefix': ref.shardPrefix },
    ConsistentRead: true,
  });
  return items.filter((i) => i.shard_gen === gen);
}

/** The counter's live figures summed over its shards: the units of the newest window. */
function fold(shards: Record<string, unknown>[], now: number): { used: number; renews: number; rate_start?: number; rate_count?: number } {
  const renews = Math.max(...shards.map((s) => Number(s.renews)));
  const used = renews > now ? shards.filter((s) => Number(s.renews) === renews).reduce((a, s) => a + Number(s.used ?? 0), 0) : 0;
  const starts = shards.filter((s) => s.rate_start !== undefined).map((s) => Number(s.rate_start));
  if (!starts.length) return { used, renews };
  const rate_start = Math.max(...starts);
  const rate_count = shards.filter((s) => Number(s.rate_start) === rate_start).reduce((a, s) => a + Number(s.rate_count ?? 0), 0);
  return { used, renews, rate_start, rate_count };
}

/**
 * The live figures of a counter as reads show them: the head's, or, for a sharded counter, its
 * shards' summed (one more Query, only for sharded counters).
 */
export async function liveOf(ref: CounterRef, head: Record<string, unknown>, now: number): Promise<LiveQuota> {
  if (typeof head.shard_gen !== 'string' || !ref.shardPrefix) return { used: Number(head.used ?? 0), renews: Number(head.renews ?? 0) };
  const shards = await readShards(ref, head.shard_gen);
  if (!shards.length) return { used: 0, renews: Number(head.renews ?? 0) };
  const { used, renews } = fold(shards, now);
  return { used, renews };
}

/**
 * Folds a sharded counter back into its head item, keeping every unit: one transaction that
 * deletes each shard on the condition that it still holds what was read. No-op for a counter
 * that is not sharded.
 */
export async function demoteCounter(ref: CounterRef, now: number): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const head = await getItem(ref.head, true);
    if (typeof head?.shard_gen !== 'string') return;
    const gen = head.shard_gen;
    const shards = await readShards(ref, gen);
    const folded = shards.length ? fold(shards, now) : { used: Number(head.used ?? 0), renews: Number(head.renews ?? 0) };
    const set = ['used = :used', 'renews = :renews'];
    const values: Record<string, unknown> = { ':used': folded.used, ':renews': folded.renews, ':g': gen };
    if ('rate_start' in folded && folded.rate_start !== undefined) {
      set.push('rate_start = :rs', 'rate_count = :rc');
      Object.assign(values, { ':rs': folded.rate_start, ':rc': folded.rate_count });
    }
    const items: TxItem[] = [
      {
        op: {
          Update: {
            TableName: tableName(),
            Key: ref.head,
            UpdateExpression: `SET ${set.join(', ')} REMOVE shard_count, shard_gen`,
            ConditionExpression: 'shard_gen = :g',
            ExpressionAttributeValues: values,
          },
        },
        onConditionFail: moved,
      },
      ...shards.map((s) => {
        const same = unchanged(s, 's', ['shard_gen = :g']);
        return {
          op: {
            Delete: {
              TableName: tableName(),
              Key: { PK: String(s.PK), SK: String(s.SK) },
              ConditionExpression: same.cond.join(' AND '),
              ExpressionAttributeValues: { ...same.values, ':g': gen },
            },
          },
          onConditionFail: moved,
        };
      }),
    ];
    try {
      await transactWrite(items);
      // What this process knew of this counter (its layout, its spent shards) is void; other hot
      // counters' layouts and hints still hold.
      forgetCounterHintsOf(ref.head.PK);
      return;
    } catch (e) {
      if (!(e instanceof CountsMoved)) throw e;
      await sleep(5 * (attempt + 1) * Math.random());
    }
  }
  throw new Error(`counter ${refName(ref.head)} could not be folded back under contention; try again`);
}

/**
 * A spend on a sharded counter: shards from a random one on, skipping those this process saw
 * spent, until one admits. 'moved' when the layout is gone (demoted, reset or deleted meanwhile).
 */
export async function spendSharded(ref: CounterRef, layout: Layout, limits: CounterLimits, now: number): Promise<Spend | 'moved'> {
  const { n, gen } = layout;
  const start = Math.floor(Math.random() * n);
  for (let round = 0; ; round++) {
    let throttled = false;
    let rateRefused = false;
    // When the refusing windows end: the latest of the shards' (one grid, so the same in practice).
    let quotaUntil = 0;
    for (let k = 0; k < n; k++) {
      const i = (start + k) % n;
      const key = ref.shard!(i);
      const caps = { quota: shareOf(limits.max, i, n), rate: limits.rate ? shareOf(limits.rate.limit, i, n) : 0 };
      // Named by the shard's item first, so forgetting a partition forgets its hints (counters.ts).
      const quotaMemo = `${refName(key)}|q|${gen}|${caps.quota}`;
      const rateMemo = limits.rate ? `${refName(key)}|r|${gen}|${caps.rate}|${limits.rate.start}` : '';
      const spentUntil = spentShards.get(quotaMemo) ?? 0;
      if (!isUnlimited(limits.max) && (caps.quota === 0 || spentUntil > now)) {
        quotaUntil = Math.max(quotaUntil, spentUntil);
        continue;
      }
      if (limits.rate && (caps.rate === 0 || spentShards.get(rateMemo) !== undefined)) {
        rateRefused = true;
        continue;
      }
      const got = await spendOne(key, caps, limits, now, gen, true);
      if (got === 'moved') return 'moved';
      if (got === 'throttled') {
        throttled = true;
        continue;
      }
      if ('layout' in got) return 'moved';
      if (got.ok) {
        // The answer's figures: this shard's share, scaled to the whole counter.
        const left = Math.max(0, caps.quota - got.used);
        return { ...got, used: isUnlimited(limits.max) ? got.used : Math.max(0, limits.max - left * n) };
      }
      if (got.reason === 'QuotaExceeded') {
        spentShards.set(quotaMemo, got.until);
        quotaUntil = Math.max(quotaUntil, got.until);
      } else {
        rateRefused = true;
        spentShards.set(rateMemo, got.until);
      }
    }
    if (!throttled) {
      return rateRefused
        ? { ok: false, reason: 'RateLimitExceeded', until: limits.rate!.end }
        : { ok: false, reason: 'QuotaExceeded', until: quotaUntil || renewsAt(now, limits.renewalRate) };
    }
    // Every shard that could admit was throttled: back off a little, as the SDK would, then
    // answer the throttling (503) if it goes on.
    if (round >= 3) throw Object.assign(new Error('every shard of a hot counter is throttled'), { name: 'ThrottlingException' });
    await backoff(round, 10, 80);
  }
}
