/**
 * Refusal tallies (shared/domain/billing.ts): each refusal the check makes for a known
 * organisation is one ADD here, on the refusal path only; the change feed's usage consumer folds
 * them into the figures (usage-figures.ts). A tally is spread over REFUSAL_SHARDS items chosen at
 * random, so a flood of refusals on one API is not one item's write ceiling. Kept a few days: long
 * enough for the stream (24 hours) to have carried every change to the consumer.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { refusedAttr, type BilledRefusal, type TallyOwner } from '../domain/billing';
import { ddb, tableName } from './db/client';
import { defineEntity } from './db/entity';
import type { StorageKey } from './db/storage-key';
import { TTL_ATTRIBUTE } from './db/table';

export const REFUSAL_TALLY_ENTITY = 'usage_refusals';
const REFUSAL_SHARDS = 8;
const KEPT_SECONDS = 4 * 24 * 3600;

const tallyKey = (orgId: string, day: string, shard: number, apiId: string): StorageKey => ({
  PK: `USAGEREF#${orgId}#${day}`,
  SK: `${shard}#${apiId}`,
});
defineEntity({ name: REFUSAL_TALLY_ENTITY, key: tallyKey });

/** Counts one refusal of `owner`'s request for `reason`. */
export async function countRefusal(owner: TallyOwner, reason: BilledRefusal): Promise<void> {
  const shard = Math.floor(Math.random() * REFUSAL_SHARDS);
  await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: tallyKey(owner.org_id, owner.day, shard, owner.api_id),
      UpdateExpression: 'ADD #n :one SET entity = :e, org_id = :o, api_id = :a, #day = :d, #exp = if_not_exists(#exp, :exp)',
      ExpressionAttributeNames: { '#n': refusedAttr(reason), '#day': 'day', '#exp': TTL_ATTRIBUTE },
      ExpressionAttributeValues: {
        ':one': 1,
        ':e': REFUSAL_TALLY_ENTITY,
        ':o': owner.org_id,
        ':a': owner.api_id,
        ':d': owner.day,
        ':exp': Math.floor(Date.parse(`${owner.day}T00:00:00Z`) / 1000) + KEPT_SECONDS,
      },
    }),
  );
}
