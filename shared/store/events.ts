/**
 * Events the data plane records (contract §11): one item per event, written by the check with one
 * PutItem and carried to the delivery by the table's change feed. The item only has to live until
 * the feed has delivered it (24 hours is the feed's own retention), so it expires by TTL.
 */
import type { EventPayload } from '../domain/events';
import { defineEntity } from './db/entity';
import type { StorageKey } from './db/storage-key';
import { writeItems } from './db/transactions';

const eventKeys = {
  event: (id: string): StorageKey => ({ PK: `EVENT#${id}`, SK: 'EVENT' }),
};

/** Entity name of an event item, by which the change feed recognises it. */
export const EVENT_ENTITY = 'event';
const TTL_SECONDS = 24 * 3600;

const events = defineEntity<{ payload: EventPayload; expires_at: number }, [id: string]>({ name: EVENT_ENTITY, key: eventKeys.event });

export async function putEvent(payload: EventPayload): Promise<void> {
  const expires = Math.floor(Date.parse(payload.occurred_at) / 1000) + TTL_SECONDS;
  await writeItems([events.put({ payload, expires_at: expires }, { at: [payload.id] })]);
}
