/**
 * A write that only ever improves a stored value (a minimum, a maximum, a latest instant), for
 * counters whose sums other calls ADD at the same time.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { backoff } from './backoff';
import { ddb, tableName } from './client';
import { isConditionFailure } from './items';
import type { StorageKey } from './storage-key';

const isTransactionConflict = (e: unknown) => e instanceof Error && e.name === 'TransactionConflictException';

/**
 * Sets `field` only when the stored value is absent or worse; losing the race is fine. A plain
 * write on a counter that another call's transaction holds at that moment is refused with a
 * TransactionConflict (which the SDK does not retry), so that is retried here.
 */
export async function setIfBetter(key: StorageKey, field: string, value: number | string, better: '<' | '>', also: Record<string, string> = {}) {
  const names: Record<string, string> = { '#f': field };
  const values: Record<string, unknown> = { ':v': value };
  const sets = ['#f = :v'];
  Object.entries(also).forEach(([k, v], i) => {
    names[`#a${i}`] = k;
    values[`:a${i}`] = v;
    sets.push(`#a${i} = :a${i}`);
  });
  for (let attempt = 0; ; attempt++) {
    try {
      await ddb().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: `SET ${sets.join(', ')}`,
          // Stored minimum above the new value (or maximum below it): the new value wins.
          ConditionExpression: `attribute_not_exists(#f) OR #f ${better === '<' ? '>' : '<'} :v`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return;
    } catch (e) {
      if (isConditionFailure(e)) return;
      if (!isTransactionConflict(e) || attempt >= 12) throw e;
      await backoff(attempt);
    }
  }
}
