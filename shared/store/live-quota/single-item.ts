/**
 * A spend on one counter item, the head or one shard (contract §10). An allowed check is ONE
 * conditional UpdateItem on it, its expression chosen from what the caller believes of the two
 * windows:
 *   quota window current   ADD used :one           IF renews > :now AND used < :max
 *   quota window elapsed   SET used = :one, renews = :next
 *                                                  IF attribute_not_exists(renews) OR renews <= :now
 *   rate window current    ADD rate_count :one     IF rate_start >= :ws AND rate_count < :limit
 *   rate window stale      SET rate_start = :ws, rate_count = :one
 *                                                  IF attribute_not_exists(rate_start) OR rate_start < :ws
 * The first attempt assumes both windows current (the steady state: one write). A failed condition
 * returns the item as it was, which says why: a full rate window is RateLimitExceeded (checked
 * first, as the gateway does), a spent quota QuotaExceeded (a refusal changes nothing), and an
 * elapsed window is renewed by the next attempt, exactly once under any concurrency. An allowed
 * write answers only the attributes it updated (UPDATED_NEW), among them always the three the
 * caller reads (used, renews, rate_start), so no more of the item comes back than is used.
 */
import { TALLY, tallyOwner } from '../../domain/billing';
import { isUnlimited, nextOnGrid, renewsAt } from '../../domain/quota';
import { isThrottling } from '../../errors';
import { counterDb, ddb, tableName } from '../db/client';
import { conditionalUpdate } from '../db/items';
import type { StorageKey } from '../db/storage-key';
import { HOT_COUNTER_SHARDS, refName, type CounterLimits, type Layout, type Receipt, type Refused, type Spend } from './counters';

/** The counter item's attributes, as the failed write returned them. */
interface Seen {
  used?: number;
  renews?: number;
  rate_start?: number;
  rate_count?: number;
  shard_count?: number;
  shard_gen?: string;
}

type Guess = { quota: 'current' } | { quota: 'elapsed'; next: number; was: number | undefined };
type RateGuess = 'current' | 'stale';

/** What this item may hold: all of quota_max and the rate, or a shard's share of them. */
interface Caps {
  quota: number;
  rate: number;
}

/**
 * Spends on one counter item (the head, or one shard of generation `gen`), retried with what each
 * failed write shows until it is spent or refused. `failFast` sends through the counter client (a
 * throttled write answers 'throttled' at once); shards renew their quota window on the grid, the
 * head from now. A head found sharded answers its layout; a shard found gone or of another
 * generation answers 'moved'.
 */
export async function spendOne(
  key: StorageKey,
  caps: Caps,
  limits: CounterLimits,
  now: number,
  gen: string | undefined,
  failFast: boolean,
): Promise<Extract<Spend, { ok: true }> | Refused | { layout: Layout } | 'throttled' | 'moved'> {
  let quota: Guess = { quota: 'current' };
  let rate: RateGuess = 'current';
  for (let attempt = 0; attempt < 50; attempt++) {
    let got: Awaited<ReturnType<typeof conditionalUpdate>>;
    try {
      got = await conditionalUpdate(spendUpdate(key, caps, limits, now, gen, quota, rate), failFast ? counterDb() : ddb());
    } catch (e) {
      if (failFast && isThrottling(e)) return 'throttled';
      throw e;
    }
    if (got.ok) {
      const a = got.item;
      const receipt: Receipt = { item: key, renews: Number(a.renews), ...(limits.rate ? { rateStart: Number(a.rate_start) } : {}), ...(gen ? { gen } : {}) };
      return { ok: true, used: Number(a.used), renews: Number(a.renews), receipt };
    }
    const old = got.old as Seen | undefined;
    if (gen === undefined && old?.shard_gen) return { layout: { n: old.shard_count ?? HOT_COUNTER_SHARDS, gen: old.shard_gen } };
    if (gen !== undefined && old?.shard_gen !== gen) return 'moved';
    const seen = classify(old, caps, limits, now, gen !== undefined);
    if ('reason' in seen) return { ok: false, ...seen };
    ({ quota, rate } = seen);
  }
  throw new Error(`counter ${refName(key)} is contended beyond reason; try again`);
}

/** What the stored item says: a refusal, or the windows' state for the next attempt. */
function classify(
  old: Seen | undefined,
  caps: Caps,
  limits: CounterLimits,
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
function spendUpdate(key: StorageKey, caps: Caps, limits: CounterLimits, now: number, gen: string | undefined, quota: Guess, rate: RateGuess) {
  const set: string[] = [];
  const add: string[] = [];
  const cond: string[] = [];
  const values: Record<string, unknown> = { ':one': 1 };
  if (quota.quota === 'current') {
    // Set to itself so that UPDATED_NEW answers the window's end (the answer's quota_renews).
    set.push('renews = renews');
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
      // Set to itself so that UPDATED_NEW answers the window this unit counts in (a refund's receipt).
      set.push('rate_start = rate_start');
      add.push('rate_count :one');
      cond.push('rate_start >= :ws', 'rate_count < :limit');
      values[':limit'] = caps.rate;
    } else {
      set.push('rate_start = :ws', 'rate_count = :one');
      cond.push('(attribute_not_exists(rate_start) OR rate_start < :ws)');
    }
  }
  if (limits.tally) {
    // The usage figures' unit, in this same write (shared/domain/billing.ts).
    add.push(`${TALLY.allowed} :one`);
    set.push(`${TALLY.of} = :tof`);
    values[':tof'] = tallyOwner(limits.tally);
  }
  if (gen !== undefined) {
    cond.push('shard_gen = :gen');
    values[':gen'] = gen;
  } else {
    // Every single-item spend requires the head unsharded: a process that does not know yet fails
    // once, reads the layout from the failed write and goes to the shards.
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
    ReturnValues: 'UPDATED_NEW' as const,
    // The only other choice is NONE: a refusal's reason and the next attempt's guess need the windows as stored.
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
}
