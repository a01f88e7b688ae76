/**
 * Reads the table's change feed (DynamoDB Streams, new and old images; contract §11) into what
 * the events service acts on. Items are recognised by their `entity`, so this module builds no
 * storage key: event items (a recorded check event), gateway keys (created, updated, deleted),
 * webhook deliveries (made, or queued again by a redeliver), and the portal's developers and key
 * requests. Everything else is skipped.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { EventPayload, PortalEvent } from '../domain/events';
import { developerEvents, keyRequestEvents } from '../domain/portal-events';
import { DELIVERY_ENTITY, type DueRef } from './hook-deliveries';
import { EVENT_ENTITY } from './events';
import type { StoredKey } from './keys';

/** One record as Lambda hands it over (aws-lambda's DynamoDBRecord, the fields read here). */
export interface FeedRecord {
  eventID?: string;
  eventName?: 'INSERT' | 'MODIFY' | 'REMOVE';
  dynamodb?: {
    ApproximateCreationDateTime?: number;
    /** What a partial batch failure names (the feed resumes from the first one named). */
    SequenceNumber?: string;
    NewImage?: Record<string, unknown>;
    OldImage?: Record<string, unknown>;
  };
}

export type FeedChange =
  | { kind: 'event'; payload: EventPayload }
  | { kind: 'key'; change: 'created' | 'updated' | 'deleted'; session: StoredKey; recordId: string; occurredAt: string }
  | { kind: 'delivery'; ref: DueRef }
  | { kind: 'portal'; events: PortalEvent[]; subject: Record<string, unknown>; recordId: string; occurredAt: string };

/** The portal's objects whose changes are events (docs/using/developer-portal.md). */
export const PORTAL_EVENT_ENTITIES = ['developer', 'key_request'] as const;

/**
 * An attribute value with no member at all is an empty map as some stream readers hand it over
 * (DynamoDB Local's, through the SDK): read it as `{}` rather than refuse the record.
 */
function repaired(v: unknown): AttributeValue {
  const a = (v ?? {}) as Record<string, unknown>;
  if (Object.keys(a).length === 0) return { M: {} };
  if (a.M && typeof a.M === 'object') return { M: Object.fromEntries(Object.entries(a.M).map(([k, x]) => [k, repaired(x)])) };
  if (Array.isArray(a.L)) return { L: a.L.map(repaired) };
  return a as unknown as AttributeValue;
}

/** A stream image (DynamoDB's wire form) as the item it shows. */
export const image = (i: Record<string, unknown> | undefined): Record<string, unknown> | undefined =>
  i ? unmarshall(Object.fromEntries(Object.entries(i).map(([k, v]) => [k, repaired(v)]))) : undefined;

/** The item's `entity`, read before anything else is decoded: most records are of no interest. */
const entityOf = (i: Record<string, unknown> | undefined): unknown => (i?.entity as { S?: string } | undefined)?.S;

/** What a record means for events, or undefined when nothing. */
export function feedChangeOf(r: FeedRecord): FeedChange | undefined {
  const entity = entityOf(r.dynamodb?.NewImage) ?? entityOf(r.dynamodb?.OldImage);
  const portal = typeof entity === 'string' && (PORTAL_EVENT_ENTITIES as readonly string[]).includes(entity);
  if (entity !== EVENT_ENTITY && entity !== 'key' && entity !== DELIVERY_ENTITY && !portal) return undefined;
  const next = image(r.dynamodb?.NewImage);
  const prev = image(r.dynamodb?.OldImage);
  const at = r.dynamodb?.ApproximateCreationDateTime;
  const occurredAt = new Date(typeof at === 'number' && at > 0 ? at * 1000 : Date.now()).toISOString();
  if (portal) {
    const events = entity === 'developer' ? developerEvents(prev, next) : keyRequestEvents(prev, next);
    return events.length && next ? { kind: 'portal', events, subject: next, recordId: r.eventID ?? occurredAt, occurredAt } : undefined;
  }
  if (entity === EVENT_ENTITY) {
    return r.eventName === 'INSERT' && next?.payload ? { kind: 'event', payload: next.payload as EventPayload } : undefined;
  }
  if (entity === 'key') {
    const change = r.eventName === 'INSERT' ? 'created' : r.eventName === 'MODIFY' ? 'updated' : 'deleted';
    // A write that leaves the key's version alone (usage kept on the item, say) is no TokenUpdated.
    if (change === 'updated' && next?.version === prev?.version) return undefined;
    const session = ((change === 'deleted' ? prev : next)?.session ?? undefined) as StoredKey | undefined;
    return session ? { kind: 'key', change, session, recordId: r.eventID ?? occurredAt, occurredAt } : undefined;
  }
  if (entity === DELIVERY_ENTITY && next && next.status === 'pending') {
    // Made (INSERT), or queued once more by a redeliver (MODIFY raising `queued`); an attempt's own
    // writes leave `queued` alone, so they do not start another attempt.
    const queuedAgain = r.eventName === 'MODIFY' && Number(next.queued ?? 0) > Number(prev?.queued ?? 0);
    if (r.eventName === 'INSERT' || queuedAgain)
      return { kind: 'delivery', ref: { org_id: String(next.org_id), hook_id: String(next.hook_id), id: String(next.id) } };
  }
  return undefined;
}
