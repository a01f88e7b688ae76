/**
 * One unit of a fixed window's counter: a conditional ADD that passes while fewer than `max` were
 * spent, never read-modify-write, so under any concurrency at most `max` pass. The item is the
 * window's alone (a new window is a new item) and expires by TTL at the window's end. Shared by
 * the organisation limits and the portal's sign-in attempts.
 */
import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { tableName } from './client';
import type { StorageKey } from './storage-key';
import { TTL_ATTRIBUTE } from './table';

export function windowUnitUpdate(key: StorageKey, entity: string, windowEnd: number, max: number) {
  return {
    TableName: tableName(),
    Key: key,
    UpdateExpression: 'ADD #used :one SET #entity = :entity, #exp = :exp',
    ConditionExpression: 'attribute_not_exists(#used) OR #used < :max',
    ExpressionAttributeNames: { '#used': 'used', '#entity': 'entity', '#exp': TTL_ATTRIBUTE },
    ExpressionAttributeValues: { ':one': 1, ':max': max, ':entity': entity, ':exp': windowEnd },
  } satisfies UpdateCommandInput;
}
