/**
 * Events the data plane records (contract §11): one item per event, written by the check with one
 * PutItem and carried to the delivery by the table's change feed. The item only has to live until
 * the feed has delivered it (24 hours is the feed's own retention), so it expires by TTL.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { EventPayload } from '../domain/events';
import { ddb, tableName } from './db/client';
import type { StorageKey } from './db/storage-key';

export const eventKeys = {
  event: (id: string): StorageKey => ({ PK: `EVENT#${id}`, SK: 'EVENT' }),
};

/** Entity name of an event item, by which the change feed recognises it. */
export const EVENT_ENTITY = 'event';
const TTL_SECONDS = 24 * 3600;

export async function putEvent(payload: EventPayload): Promise<void> {
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...eventKeys.event(payload.id), entity: EVENT_ENTITY, payload, expires_at: Math.floor(Date.parse(payload.occurred_at) / 1000) + TTL_SECONDS },
    }),
  );
}
