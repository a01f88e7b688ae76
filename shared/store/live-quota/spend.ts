/** The check's spend on a counter: its head item, or its shards once it is hot (shards.ts). */
import { isUnlimited } from '../../domain/quota';
import type { StorageKey } from '../db/storage-key';
import { refName, layouts, spentShards, type CounterLimits, type CounterRef, type Layout, type Refused, type Spend } from './counters';
import { promote, spendSharded } from './shards';
import { spendOne } from './single-item';

/**
 * Spends one unit of `ref` under `limits` (and counts the request in its rate window), or says
 * which limit refused it. One conditional UpdateItem when the windows are current and the
 * counter is not sharded.
 */
export async function spend(ref: CounterRef, limits: CounterLimits, now: number): Promise<Spend> {
  const name = refName(ref.head);
  let layout: Layout | undefined = ref.shard ? layouts.get(name) : undefined;
  for (let round = 0; round < 8; round++) {
    if (layout) {
      const got = await spendSharded(ref, layout, limits, now);
      if (got !== 'moved') return got;
      // This counter's layout is gone; other hot counters' layouts still hold.
      layouts.delete(name);
      layout = undefined;
      continue;
    }
    const known = knownSpent(ref.head, limits, now);
    if (known) return known;
    const got = await spendOne(ref.head, { quota: limits.max, rate: limits.rate?.limit ?? 0 }, limits, now, undefined, !!ref.shard);
    if (got === 'throttled') layout = await promote(ref, limits, now);
    else if (got === 'moved') throw new Error('unreachable: the head item never moves');
    else if ('layout' in got) layout = got.layout;
    else {
      if (!got.ok) rememberSpent(ref.head, limits, got);
      return got;
    }
    if (!ref.shard) throw new Error(`counter ${name} is sharded but has no shard keys`);
    layouts.set(name, layout);
  }
  throw new Error(`counter ${name} kept changing mode; try again`);
}

/**
 * What this process saw of a head item's windows, as a hot counter's shards are remembered
 * (shards.ts): a quota spent until its window ends, a rate window full until it ends, each named
 * with the limit it was spent under (a changed limit is a new name). A refusal then costs no write,
 * so a flood of refused requests leaves the counter's item alone; a reset in this process forgets
 * it at once (forgetCounterHintsOf), one in another process within CACHE_SECONDS, the bound the
 * contract gives every change of a key.
 */
const quotaMemo = (head: StorageKey, limits: CounterLimits) => `${refName(head)}|q|head|${limits.max}`;
const rateMemo = (head: StorageKey, limits: CounterLimits) => `${refName(head)}|r|head|${limits.rate?.limit}|${limits.rate?.start}`;

function knownSpent(head: StorageKey, limits: CounterLimits, now: number): Refused | undefined {
  if (limits.rate && spentShards.get(rateMemo(head, limits)) !== undefined) return { ok: false, reason: 'RateLimitExceeded', until: limits.rate.end };
  const until = isUnlimited(limits.max) ? undefined : spentShards.get(quotaMemo(head, limits));
  return until !== undefined && until > now ? { ok: false, reason: 'QuotaExceeded', until } : undefined;
}

function rememberSpent(head: StorageKey, limits: CounterLimits, refused: Refused): void {
  if (refused.reason === 'RateLimitExceeded') {
    if (limits.rate) spentShards.set(rateMemo(head, limits), refused.until);
  } else spentShards.set(quotaMemo(head, limits), refused.until);
}
