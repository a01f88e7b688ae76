/**
 * Live quotas and rate windows (contract §6 and §10): changed only by conditional atomic updates,
 * never read-modify-write. The arithmetic is shared/domain/quota.ts.
 *
 * ONE ITEM PER COUNTER. A key's counter item (QUOTA, or QUOTA#<api_id> under per-API limits)
 * holds both windows the check enforces:
 *   used, renews             the quota window: units spent, and when it ends (NEVER_RENEWS: never)
 *   rate_start, rate_count   the fixed rate window of `per` seconds that was last counted in
 * `quota_max` and the rate are not stored: each spend passes the limits in force, so a policy
 * change applies at once. An allowed check is ONE conditional UpdateItem on this item; the
 * expression is chosen from what the caller believes of the two windows:
 *   quota window current   ADD used :one           IF renews > :now AND used < :max
 *   quota window elapsed   SET used = :one, renews = :next
 *                                                  IF attribute_not_exists(renews) OR renews <= :now
 *   rate window current    ADD rate_count :one     IF rate_start >= :ws AND rate_count < :limit
 *   rate window stale      SET rate_start = :ws, rate_count = :one
 *                                                  IF attribute_not_exists(rate_start) OR rate_start < :ws
 * The first attempt assumes both windows current (the steady state: one write). A failed
 * condition returns the item as it was (ReturnValuesOnConditionCheckFailure: ALL_OLD), which
 * says why: a full rate window is RateLimitExceeded (checked first, as the gateway does), a
 * spent quota is QuotaExceeded (a refusal changes nothing), and an elapsed window is renewed by
 * the next attempt. Renewal happens exactly once under any concurrency: of the requests that
 * saw a window elapse, one moves it on (its condition holds only for the old window) and has
 * spent its unit; the others fail, see the new window and ADD into it. So at most `quota_max`
 * units are spent per quota window and at most `limit` per rate window. Windows only move
 * forward (`>=`, `<`), so processes whose clocks differ by a little never undo each other.
 * An organisation's quota is an item of the same shape without a rate window, spent after the
 * key's; when it refuses, the key's unit (and its rate count) is given back.
 *
 * HOT KEYS. DynamoDB serves about 1,000 writes/s per item. When a counter's write is throttled,
 * the check promotes it to SHARDS: the head item gets `shard_count` n and a fresh `shard_gen`,
 * and n shard items (SHARD#<scope>#<i>, same partition key, spread by DynamoDB over
 * partitions as the key's traffic grows) take over the counts in one transaction that
 * conditions the head on the values it read, so no unit is lost or granted: shard i gets
 * shareOf(used, i, n) of the units spent and shareOf(rate_count, i, n) of the rate window. Shard
 * i may spend up to shareOf(quota_max, i, n) units per quota window and shareOf(limit, i, n) per
 * rate window (the shares of any total add up to it, so the window's total never passes
 * quota_max or the rate), with the single-item conditions plus `shard_gen = :gen`. Shards renew
 * their quota windows on one grid (nextOnGrid: the old end plus whole periods), so all shards
 * count the same window; rate windows are aligned to the epoch already. A check starts at a
 * random shard and spills over to the next one when a shard is spent or throttled, so it is
 * refused only when every shard refused: no false refusal while units are left, except that a
 * process remembers a spent shard until its window ends, for at most CACHE_SECONDS (a unit given
 * back to it by an organisation refusal in that time, or a reset made by another process, is
 * seen that much later), and that with a rate limit as well, a shard whose rate share is full
 * refuses although another shard's rate share has room while only that shard has quota left.
 * The head's own counters are frozen while it is sharded, and every single-item spend requires
 * `attribute_not_exists(shard_gen)`, so a process that does not know yet fails once, reads the
 * layout from the failed write and goes to the shards. demoteCounter() folds the shards back
 * into the head exactly (one transaction conditioned on every shard's values); a quota reset of
 * a sharded key demotes it first. A shard write that finds its shard gone or of another
 * generation sends the check back to the head.
 *
 * STORED BEFORE THIS DESIGN. Counter items of the earlier layout hold `used` and `renews` only:
 * they are read as they are (no rate window counted yet), so no live key loses or gains a quota
 * unit. The earlier separate rate-window items (RATE#<scope>#<start>) are no longer read; each
 * expires by TTL at its window's end, so a rate window open at the deploy is counted afresh once.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { randomHex } from '../domain/hashing';
import { isUnlimited, nextOnGrid, renewsAt, shareOf, type RateWindow } from '../domain/quota';
import { TtlCache } from '../domain/ttl-cache';
import { Conflict } from '../errors';
import { counterDb, ddb, tableName } from './db/client';
import { isConditionFailure } from './db/items';
import type { StorageKey } from './db/storage-key';
import type { TxItem } from './db/transactions';

/** Where a counter lives: its head item and, once sharded, its shards in the same partition. */
export interface CounterRef {
  head: StorageKey;
  /** Shard i's key; absent for a counter that is never sharded (an organisation's). */
  shard?: (i: number) => StorageKey;
  /** The sort-key prefix all its shards share (for one Query). */
  shardPrefix?: string;
}

/** The limits in force for one spend. */
export interface SpendLimits {
  /** quota_max; at or below 0 unlimited. */
  max: number;
  renewalRate: number;
  /** The fixed rate window this request counts in; null without a rate limit. */
  rate: RateWindow | null;
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
  | { ok: false; reason: 'QuotaExceeded' | 'RateLimitExceeded' };

/** Shards a hot counter is split into: 8 × DynamoDB's per-item ceiling, 8 writes to drain it. */
export const HOT_COUNTER_SHARDS = 8;

interface Layout {
  n: number;
  gen: string;
}

/** The counter item's attributes, as the failed write returned them. */
interface Seen {
  used?: number;
  renews?: number;
  rate_start?: number;
  rate_count?: number;
  shard_count?: number;
  shard_gen?: string;
}

/** Process-local knowledge, each entry at most CACHE_SECONDS old: which counters are sharded... */
const layouts = new TtlCache<Layout>(() => config().cacheMs);
/** ...and which shards are spent until their window ends (value: that end, epoch seconds). */
const spentShards = new TtlCache<number>(() => config().cacheMs);

/** Writes in this process that change limits or counters forget what it remembered. */
export function forgetCounterHints(): void {
  layouts.clear();
  spentShards.clear();
}

const refName = (key: StorageKey) => `${key.PK}|${key.SK}`;

// ---------------------------------------------------------------------------------------------
// Creating and resetting

/**
 * Transaction item that resets a live quota: nothing used, a window starting now. The rate
 * window is left as it is (a reset is about the quota). A sharded counter fails it with
 * CounterIsSharded; the caller demotes it and tries again.
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
    onConditionFail: () => new CounterIsSharded(key),
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

/** A reset met a sharded counter: the store demotes it (demoteCounter) and runs the reset again. */
export class CounterIsSharded extends Conflict {
  constructor(readonly head: StorageKey) {
    super('the live quota changed while it was being reset; try again');
  }
}

// ---------------------------------------------------------------------------------------------
// Spending

/**
 * Spends one unit of `ref` under `limits` (and counts the request in its rate window), or says
 * which limit refused it. One conditional UpdateItem when the windows are current.
 */
export async function spend(ref: CounterRef, limits: SpendLimits, now: number): Promise<Spend> {
  const name = refName(ref.head);
  let layout = ref.shard ? layouts.get(name) : undefined;
  for (let round = 0; round < 8; round++) {
    if (layout) {
      const got = await spendSharded(ref, layout, limits, now);
      if (got !== 'moved') return got;
      layouts.clear();
      layout = undefined;
      continue;
    }
    const got = await spendOne(ref.head, { quota: limits.max, rate: limits.rate?.limit ?? 0 }, limits, now, undefined, !!ref.shard);
    if (got === 'throttled') layout = await promote(ref, limits, now);
    else if (got === 'moved') throw new Error('unreachable: the head item never moves');
    else if ('layout' in got) layout = got.layout;
    else return got.ok ? got : { ok: false, reason: got.reason };
    if (!ref.shard) throw new Error(`counter ${name} is sharded but has no shard keys`);
    layouts.set(name, layout);
  }
  throw new Error(`counter ${name} kept changing mode; try again`);
}

/** A refusal, with the end of the window that refused (how long a spent shard stays spent). */
type Refused = { ok: false; reason: 'QuotaExceeded' | 'RateLimitExceeded'; until: number };

type Guess = { quota: 'current' } | { quota: 'elapsed'; next: number; was: number | undefined };
type RateGuess = 'current' | 'stale';

interface Caps {
  quota: number;
  rate: number;
}

/**
 * One counter item (the head, or one shard of generation `gen`): the single-item conditions,
 * retried with what each failed write shows until it is spent or refused. `failFast` sends
 * through the counter client (a throttled write answers 'throttled' at once); shards renew
 * their quota window on the grid, the head from now.
 */
async function spendOne(
  key: StorageKey,
  caps: Caps,
  limits: SpendLimits,
  now: number,
  gen: string | undefined,
  failFast: boolean,
): Promise<Extract<Spend, { ok: true }> | Refused | { layout: Layout } | 'throttled' | 'moved'> {
  let quota: Guess = { quota: 'current' };
  let rate: RateGuess = 'current';
  for (let attempt = 0; attempt < 50; attempt++) {
    const update = spendUpdate(key, caps, limits, now, gen, quota, rate);
    try {
      const out = await (failFast ? counterDb() : ddb()).send(new UpdateCommand(update));
      const a = out.Attributes ?? {};
      const receipt: Receipt = { item: key, renews: Number(a.renews), ...(limits.rate ? { rateStart: Number(a.rate_start) } : {}), ...(gen ? { gen } : {}) };
      return { ok: true, used: Number(a.used), renews: Number(a.renews), receipt };
    } catch (e) {
      if (failFast && isThrottled(e)) return 'throttled';
      if (!isConditionFailure(e)) throw e;
      const old = e.Item ? unwire(e.Item) : undefined;
      if (gen === undefined && old?.shard_gen) return { layout: { n: old.shard_count ?? HOT_COUNTER_SHARDS, gen: old.shard_gen } };
      if (gen !== undefined && old?.shard_gen !== gen) return 'moved';
      const seen = classify(old, caps, limits, now, gen !== undefined);
      if ('reason' in seen) return { ok: false, ...seen };
      ({ quota, rate } = seen);
    }
  }
  throw new Error(`counter ${refName(key)} is contended beyond reason; try again`);
}

/** What the stored item says: a refusal, or the windows' state for the next attempt. */
function classify(
  old: Seen | undefined,
  caps: Caps,
  limits: SpendLimits,
  now: number,
  onGrid: boolean,
): Omit<Refused, 'ok'> | { quota: Guess; rate: RateGuess } {
  const w = limits.rate;
  const rateCurrent = !!w && old?.rate_start !== undefined && old.rate_start >= w.start;
  if (w && rateCurrent && (old!.rate_count ?? 0) >= caps.rate) return { reason: 'RateLimitExceeded', until: w.end };
  const quotaCurrent = old?.renews !== undefined && old.renews > now;
  if (quotaCurrent && !isUnlimited(limits.max) && (old!.used ?? 0) >= caps.quota) return { reason: 'QuotaExceeded', until: old!.renews! };
  const quota: Guess = quotaCurrent
    ? { quota: 'current' }
    : {
        quota: 'elapsed',
        was: old?.renews,
        next: onGrid && old?.renews !== undefined ? nextOnGrid(old.renews, limits.renewalRate, now) : renewsAt(now, limits.renewalRate),
      };
  return { quota, rate: rateCurrent ? 'current' : 'stale' };
}

/** The UpdateItem of one spend attempt for the guessed state of both windows. */
function spendUpdate(key: StorageKey, caps: Caps, limits: SpendLimits, now: number, gen: string | undefined, quota: Guess, rate: RateGuess) {
  const set: string[] = [];
  const add: string[] = [];
  const cond: string[] = [];
  const values: Record<string, unknown> = { ':one': 1 };
  if (quota.quota === 'current') {
    add.push('used :one');
    cond.push('renews > :now');
    values[':now'] = now;
    if (!isUnlimited(limits.max)) {
      cond.push('used < :max');
      values[':max'] = caps.quota;
    }
  } else {
    set.push('used = :one', 'renews = :next');
    values[':next'] = quota.next;
    // The head renews from now when its window has elapsed; a shard moves on the grid from the
    // exact end it saw, so two renewals of one shard window cannot both win.
    if (gen !== undefined) {
      cond.push('renews = :was');
      values[':was'] = quota.was;
    } else {
      cond.push('(attribute_not_exists(renews) OR renews <= :now)');
      values[':now'] = now;
    }
  }
  const w = limits.rate;
  if (w) {
    values[':ws'] = w.start;
    if (rate === 'current') {
      add.push('rate_count :one');
      cond.push('rate_start >= :ws', 'rate_count < :limit');
      values[':limit'] = caps.rate;
    } else {
      set.push('rate_start = :ws', 'rate_count = :one');
      cond.push('(attribute_not_exists(rate_start) OR rate_start < :ws)');
    }
  }
  if (gen !== undefined) {
    cond.push('shard_gen = :gen');
    values[':gen'] = gen;
  } else {
    cond.push('attribute_not_exists(shard_gen)');
    if (quota.quota === 'elapsed') {
      // The renewal may create the item: every item carries its entity.
      set.push('entity = :e');
      values[':e'] = 'live_quota';
    }
  }
  return {
    TableName: tableName(),
    Key: key,
    UpdateExpression: [set.length ? `SET ${set.join(', ')}` : '', add.length ? `ADD ${add.join(', ')}` : ''].filter(Boolean).join(' '),
    ConditionExpression: cond.join(' AND '),
    ExpressionAttributeValues: values,
    ReturnValues: 'ALL_NEW' as const,
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
}

/**
 * A sharded counter: shards from a random one on, skipping those this process saw spent, until
 * one admits. 'moved' when the layout is gone (demoted, reset or deleted meanwhile).
 */
async function spendSharded(ref: CounterRef, layout: Layout, limits: SpendLimits, now: number): Promise<Spend | 'moved'> {
  const { n, gen } = layout;
  const start = Math.floor(Math.random() * n);
  for (let round = 0; ; round++) {
    let throttled = false;
    let rateRefused = false;
    for (let k = 0; k < n; k++) {
      const i = (start + k) % n;
      const key = ref.shard!(i);
      const caps = { quota: shareOf(limits.max, i, n), rate: limits.rate ? shareOf(limits.rate.limit, i, n) : 0 };
      const quotaMemo = `q|${refName(key)}|${gen}|${caps.quota}`;
      const rateMemo = limits.rate ? `r|${refName(key)}|${gen}|${caps.rate}|${limits.rate.start}` : '';
      if (!isUnlimited(limits.max) && (caps.quota === 0 || (spentShards.get(quotaMemo) ?? 0) > now)) continue;
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
      if (got.reason === 'QuotaExceeded') spentShards.set(quotaMemo, got.until);
      else {
        rateRefused = true;
        spentShards.set(rateMemo, got.until);
      }
    }
    if (!throttled) return { ok: false, reason: rateRefused ? 'RateLimitExceeded' : 'QuotaExceeded' };
    // Every shard that could admit was throttled: back off a little, as the SDK would, then
    // answer the throttling (503) if it goes on.
    if (round >= 3) throw throttlingError();
    await sleep((10 << round) * (0.5 + Math.random()));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function throttlingError(): Error {
  return Object.assign(new Error('every shard of a hot counter is throttled'), { name: 'ThrottlingException' });
}

function isThrottled(e: unknown): boolean {
  return e instanceof Error && /Throttl|ProvisionedThroughputExceeded|RequestLimitExceeded/.test(e.name);
}

// ---------------------------------------------------------------------------------------------
// Giving a unit back

/**
 * Gives back a unit spent under `receipt` (the organisation refused the request), and its rate
 * count. A window renewed since is left alone: its count never held that unit.
 */
export async function refund(receipt: Receipt): Promise<void> {
  const gen = receipt.gen ? { cond: ' AND shard_gen = :gen', values: { ':gen': receipt.gen } } : { cond: '', values: {} };
  const quotaPart = { add: 'used :minus', cond: 'renews = :r AND used > :zero', values: { ':r': receipt.renews } };
  const ratePart = receipt.rateStart !== undefined ? { add: 'rate_count :minus', cond: 'rate_start = :ws AND rate_count > :zero', values: { ':ws': receipt.rateStart } } : undefined;
  const attempts = ratePart ? [[quotaPart, ratePart], [quotaPart], [ratePart]] : [[quotaPart]];
  for (const parts of attempts) {
    try {
      await ddb().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: receipt.item,
          UpdateExpression: `ADD ${parts.map((p) => p.add).join(', ')}`,
          ConditionExpression: parts.map((p) => p.cond).join(' AND ') + gen.cond,
          ExpressionAttributeValues: { ':minus': -1, ':zero': 0, ...Object.assign({}, ...parts.map((p) => p.values)), ...gen.values },
        }),
      );
      return;
    } catch (e) {
      if (!isConditionFailure(e)) throw e;
      // Both together failed: one of the windows moved on; give back what still applies.
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Switching between one item and shards

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
 * Splits the counter over HOT_COUNTER_SHARDS shards (see the header), keeping every unit: one
 * transaction conditioned on the head as read. Answers the layout now in force (another
 * process's, when it promoted first).
 */
export async function promote(ref: CounterRef, limits: SpendLimits, now: number, n = HOT_COUNTER_SHARDS): Promise<Layout> {
  if (!ref.shard) throw new Error('this counter is never sharded');
  for (let attempt = 0; attempt < 10; attempt++) {
    const head = (await ddb().send(new GetCommand({ TableName: tableName(), Key: ref.head, ConsistentRead: true }))).Item;
    if (typeof head?.shard_gen === 'string') return { n: Number(head.shard_count), gen: head.shard_gen };
    const gen = randomHex(8);
    const current = head && Number(head.renews) > now;
    const used = current ? Number(head.used ?? 0) : 0;
    const renews = current ? Number(head.renews) : renewsAt(now, limits.renewalRate);
    const w = limits.rate;
    const rateCurrent = !!w && head?.rate_start !== undefined && Number(head.rate_start) >= w.start;
    const rateCount = rateCurrent ? Number(head!.rate_count ?? 0) : 0;
    const same = unchanged(head, 'h', ['attribute_not_exists(shard_gen)']);
    const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [
      {
        Update: {
          TableName: tableName(),
          Key: ref.head,
          UpdateExpression: 'SET entity = :e, shard_count = :n, shard_gen = :g',
          ConditionExpression: same.cond.join(' AND '),
          ExpressionAttributeValues: { ':e': 'live_quota', ':n': n, ':g': gen, ...same.values },
        },
      },
      ...Array.from({ length: n }, (_, i) => ({
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
      })),
    ];
    try {
      await ddb().send(new TransactWriteCommand({ TransactItems: items }));
      return { n, gen };
    } catch (e) {
      // The head moved on between the read and the transaction (a spend landed): read again.
      if (!(e instanceof TransactionCanceledException)) throw e;
    }
  }
  throw new Error(`counter ${refName(ref.head)} could not be sharded under contention; try again`);
}

/** A sharded counter's shards of generation `gen`, by index. */
async function readShards(ref: CounterRef, gen: string): Promise<Record<string, unknown>[]> {
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': ref.head.PK, ':prefix': ref.shardPrefix },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).filter((i) => i.shard_gen === gen);
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
    const head = (await ddb().send(new GetCommand({ TableName: tableName(), Key: ref.head, ConsistentRead: true }))).Item;
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
    const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [
      {
        Update: {
          TableName: tableName(),
          Key: ref.head,
          UpdateExpression: `SET ${set.join(', ')} REMOVE shard_count, shard_gen`,
          ConditionExpression: 'shard_gen = :g',
          ExpressionAttributeValues: values,
        },
      },
      ...shards.map((s) => {
        const same = unchanged(s, 's', ['shard_gen = :g']);
        return {
          Delete: {
            TableName: tableName(),
            Key: { PK: String(s.PK), SK: String(s.SK) },
            ConditionExpression: same.cond.join(' AND '),
            ExpressionAttributeValues: { ...same.values, ':g': gen },
          },
        };
      }),
    ];
    try {
      await ddb().send(new TransactWriteCommand({ TransactItems: items }));
      forgetCounterHints();
      return;
    } catch (e) {
      if (!(e instanceof TransactionCanceledException)) throw e;
      await sleep(5 * (attempt + 1) * Math.random());
    }
  }
  throw new Error(`counter ${refName(ref.head)} could not be folded back under contention; try again`);
}

/** The failure's old item comes back in the wire form ({N: "3"}), not the document form. */
function unwire(item: Record<string, unknown>): Seen {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) {
    if (v && typeof v === 'object' && 'N' in v) out[k] = Number((v as { N: string }).N);
    else if (v && typeof v === 'object' && 'S' in v) out[k] = (v as { S: string }).S;
  }
  return out as Seen;
}
