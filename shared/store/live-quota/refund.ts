/** Giving back a unit: the key spent it, then its organisation's quota refused the request. */
import { conditionalUpdate } from '../db/items';
import { tableName } from '../db/client';
import type { Receipt } from './counters';

/**
 * Gives back a unit spent under `receipt`, and its rate count. A window renewed since is left
 * alone: its count never held that unit.
 */
export async function refund(receipt: Receipt): Promise<void> {
  const gen = receipt.gen ? { cond: ' AND shard_gen = :gen', values: { ':gen': receipt.gen } } : { cond: '', values: {} };
  const quotaPart = { add: 'used :minus', cond: 'renews = :r AND used > :zero', values: { ':r': receipt.renews } };
  const ratePart =
    receipt.rateStart !== undefined
      ? { add: 'rate_count :minus', cond: 'rate_start = :ws AND rate_count > :zero', values: { ':ws': receipt.rateStart } }
      : undefined;
  // Both together first; when one of the windows moved on, give back what still applies.
  const attempts = ratePart ? [[quotaPart, ratePart], [quotaPart], [ratePart]] : [[quotaPart]];
  for (const parts of attempts) {
    const done = await conditionalUpdate({
      TableName: tableName(),
      Key: receipt.item,
      UpdateExpression: `ADD ${parts.map((p) => p.add).join(', ')}`,
      ConditionExpression: parts.map((p) => p.cond).join(' AND ') + gen.cond,
      ExpressionAttributeValues: { ':minus': -1, ':zero': 0, ...Object.assign({}, ...parts.map((p) => p.values)), ...gen.values },
    });
    if (done.ok) return;
  }
}
