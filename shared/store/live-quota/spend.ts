/** The check's spend on a counter: its head item, or its shards once it is hot (shards.ts). */
import { refName, layouts, type CounterLimits, type CounterRef, type Layout, type Spend } from './counters';
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
