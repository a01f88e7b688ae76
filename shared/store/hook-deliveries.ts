/**
 * Webhook deliveries (contract §11): one item per (event, hook), the log `GET
 * /api/hooks/{hookID}/deliveries` reads and the source of truth of every retry; cooldown windows
 * per (hook, event, key). Deliveries expire by TTL after 30 days.
 *
 * - A delivery is created in one transaction with its cooldown window: the delivery only when its
 *   id is new (a change-feed record seen twice makes no second one), the window only when the last
 *   one has ended (exact under any concurrency: one delivery per window). Without a window it is
 *   one conditional Put.
 * - One attempt at a time: an attempt first claims a lease (conditional update on status, due time
 *   and lease), then records its outcome under that lease.
 * - While pending, a delivery sits in the due index (GSI2 `HOOKDUE`, by next attempt time), from
 *   which the local stage's stand-in for the retry queue picks what is due, after a restart too.
 */
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict } from '../errors';
import { pagesSeen, type PageRequest } from '../domain/paging';
import { ddb, tableName } from './db/client';
import { defineEntity } from './db/entity';
import { isConditionFailure, getItem, stripItem } from './db/items';
import { listPage, type ListQuery } from './db/paging';
import type { StorageKey } from './db/storage-key';
import { putOp, transactWrite } from './db/transactions';

export const deliveryKeys = {
  partition: (orgId: string, hookId: string) => `HOOKDLV#${orgId}#${hookId}`,
  delivery: (orgId: string, hookId: string, id: string): StorageKey => ({ PK: `HOOKDLV#${orgId}#${hookId}`, SK: `DLV#${id}` }),
  sortPrefix: 'DLV#',
  cooldown: (orgId: string, hookId: string, event: string, keyHash: string): StorageKey => ({
    PK: `HOOKCOOL#${orgId}#${hookId}#${event}#${keyHash}`,
    SK: 'COOLDOWN',
  }),
  /** GSI2: every pending delivery, by next attempt time. */
  due: 'HOOKDUE',
  dueSort: (nextAt: string, orgId: string, hookId: string, id: string) => `${nextAt}#${orgId}#${hookId}#${id}`,
};

export const DELIVERY_ENTITY = 'delivery';
// Keyed here; written by the functions below.
defineEntity({ name: DELIVERY_ENTITY, key: deliveryKeys.delivery });
defineEntity({ name: 'hook_cooldown', key: deliveryKeys.cooldown });
const LOG_TTL_SECONDS = 30 * 24 * 3600;
const PRIVATE = ['payload', 'lease_until', 'next_at_ms', 'queued', 'org_id', 'hook_id'];

type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A delivery as the table holds it. */
export interface StoredDelivery {
  id: string;
  org_id: string;
  hook_id: string;
  event_id: string;
  event: string;
  api_id: string;
  /** The exact body every attempt sends. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  /** Times it was queued: 1 when made, one more per redeliver (the change feed attempts on each). */
  queued: number;
  next_at_ms?: number;
  next_attempt_at?: string;
  last_attempt_at?: string;
  response_code?: number;
  duration_ms?: number;
  error?: string;
  created_at: string;
  updated_at: string;
}

/** A delivery as the log shows it (no payload, no lease). */
export type Delivery = Omit<StoredDelivery, 'payload' | 'next_at_ms' | 'queued' | 'org_id' | 'hook_id'>;

const iso = (ms: number) => new Date(ms).toISOString();

function dueAttrs(d: Pick<StoredDelivery, 'org_id' | 'hook_id' | 'id'>, nextAtMs: number) {
  return {
    next_at_ms: nextAtMs,
    next_attempt_at: iso(nextAtMs),
    GSI2PK: deliveryKeys.due,
    GSI2SK: deliveryKeys.dueSort(iso(nextAtMs), d.org_id, d.hook_id, d.id),
  };
}

class DeliveryExists extends Conflict {}
class CoolingDown extends Conflict {}

export interface Cooldown {
  event: string;
  keyHash: string;
  seconds: number;
}

/**
 * Makes a pending delivery, due now, together with its cooldown window when it has one. Answers
 * what happened: made, already made (a repeated change-feed record), or inside a window.
 */
export async function insertDelivery(
  d: Omit<StoredDelivery, 'status' | 'attempts' | 'queued' | 'updated_at'>,
  cooldown: Cooldown | undefined,
  nowMs: number,
): Promise<'created' | 'exists' | 'cooling'> {
  const item = {
    ...deliveryKeys.delivery(d.org_id, d.hook_id, d.id),
    entity: DELIVERY_ENTITY,
    ...d,
    status: 'pending',
    attempts: 0,
    queued: 1,
    updated_at: d.created_at,
    expires_at: Math.floor(nowMs / 1000) + LOG_TTL_SECONDS,
    ...dueAttrs(d, nowMs),
  };
  const now = Math.floor(nowMs / 1000);
  if (!cooldown || cooldown.seconds <= 0) {
    // No window to keep: one conditional Put (a transaction would cost twice the writes).
    try {
      await ddb().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' }));
      return 'created';
    } catch (e) {
      if (isConditionFailure(e)) return 'exists';
      throw e;
    }
  }
  try {
    await transactWrite([
      { op: putOp(item, 'attribute_not_exists(PK)'), onConditionFail: () => new DeliveryExists('delivery exists') },
      {
        op: putOp(
          {
            ...deliveryKeys.cooldown(d.org_id, d.hook_id, cooldown.event, cooldown.keyHash),
            entity: 'hook_cooldown',
            window_end: now + cooldown.seconds,
            expires_at: now + cooldown.seconds,
          },
          'attribute_not_exists(PK) OR window_end <= :now',
          { ':now': now },
        ),
        onConditionFail: () => new CoolingDown('cooling down'),
      },
    ]);
    return 'created';
  } catch (e) {
    if (e instanceof DeliveryExists) return 'exists';
    if (e instanceof CoolingDown) return 'cooling';
    throw e;
  }
}

export async function loadDelivery(orgId: string, hookId: string, id: string): Promise<StoredDelivery | undefined> {
  const item = await getItem(deliveryKeys.delivery(orgId, hookId, id), true);
  return item ? stripItem<StoredDelivery>(item, ['GSI2PK', 'GSI2SK', 'expires_at', 'lease_until']) : undefined;
}

/**
 * Claims the next attempt: only a pending delivery that is due and not being attempted. Answers
 * the delivery with the lease's end, or undefined when someone else has it or it is not due.
 */
export async function claimAttempt(
  orgId: string,
  hookId: string,
  id: string,
  nowMs: number,
  leaseMs: number,
): Promise<{ delivery: StoredDelivery; lease: number } | undefined> {
  const lease = nowMs + leaseMs;
  try {
    const out = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: deliveryKeys.delivery(orgId, hookId, id),
        UpdateExpression: 'SET lease_until = :lease',
        ConditionExpression: '#s = :pending AND next_at_ms <= :now AND (attribute_not_exists(lease_until) OR lease_until < :now)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':lease': lease, ':pending': 'pending', ':now': nowMs },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { delivery: stripItem<StoredDelivery>(out.Attributes ?? {}, ['GSI2PK', 'GSI2SK', 'expires_at', 'lease_until']), lease };
  } catch (e) {
    if (isConditionFailure(e)) return undefined;
    throw e;
  }
}

export interface AttemptOutcome {
  status: DeliveryStatus;
  responseCode?: number;
  durationMs: number;
  error?: string;
  /** When pending: the next attempt's time. */
  nextAtMs?: number;
}

/** Records an attempt's outcome under the lease that claimed it; false when the lease was lost. */
export async function saveAttemptOutcome(
  d: Pick<StoredDelivery, 'org_id' | 'hook_id' | 'id'>,
  lease: number,
  o: AttemptOutcome,
  nowMs: number,
): Promise<boolean> {
  const set = ['#s = :status', 'last_attempt_at = :at', 'updated_at = :at', 'duration_ms = :dur'];
  const remove = ['lease_until'];
  const values: Record<string, unknown> = { ':status': o.status, ':at': iso(nowMs), ':dur': o.durationMs, ':lease': lease, ':one': 1 };
  if (o.responseCode !== undefined) {
    set.push('response_code = :code');
    values[':code'] = o.responseCode;
  } else remove.push('response_code');
  if (o.error !== undefined) {
    set.push('#e = :err');
    values[':err'] = o.error.slice(0, 1024);
  } else remove.push('#e');
  if (o.status === 'pending' && o.nextAtMs !== undefined) {
    const due = dueAttrs(d, o.nextAtMs);
    set.push('next_at_ms = :nextMs', 'next_attempt_at = :nextAt', 'GSI2PK = :dueP', 'GSI2SK = :dueS');
    Object.assign(values, { ':nextMs': due.next_at_ms, ':nextAt': due.next_attempt_at, ':dueP': due.GSI2PK, ':dueS': due.GSI2SK });
  } else remove.push('next_at_ms', 'next_attempt_at', 'GSI2PK', 'GSI2SK');
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: deliveryKeys.delivery(d.org_id, d.hook_id, d.id),
        UpdateExpression: `SET ${set.join(', ')} REMOVE ${remove.join(', ')} ADD attempts :one`,
        ConditionExpression: 'lease_until = :lease',
        ExpressionAttributeNames: { '#s': 'status', ...(remove.includes('#e') || o.error !== undefined ? { '#e': 'error' } : {}) },
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (e) {
    if (isConditionFailure(e)) return false;
    throw e;
  }
}

/** Queues one more attempt, due now (redeliver); false when the delivery does not exist. */
export async function saveRedelivery(orgId: string, hookId: string, id: string, nowMs: number): Promise<boolean> {
  const due = dueAttrs({ org_id: orgId, hook_id: hookId, id }, nowMs);
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: deliveryKeys.delivery(orgId, hookId, id),
        UpdateExpression:
          'SET #s = :pending, next_at_ms = :nextMs, next_attempt_at = :nextAt, GSI2PK = :dueP, GSI2SK = :dueS, updated_at = :at ADD queued :one',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':nextMs': due.next_at_ms,
          ':nextAt': due.next_attempt_at,
          ':dueP': due.GSI2PK,
          ':dueS': due.GSI2SK,
          ':at': iso(nowMs),
          ':one': 1,
        },
      }),
    );
    return true;
  } catch (e) {
    if (isConditionFailure(e)) return false;
    throw e;
  }
}

/**
 * A hook's deliveries, newest first, paged. Log items expire by TTL, which no counter can follow,
 * so `pages` is the pages the read has seen (contract §5).
 */
export async function loadDeliveryPage(orgId: string, hookId: string, req: PageRequest) {
  const q: ListQuery = { partition: deliveryKeys.partition(orgId, hookId), sortPrefix: deliveryKeys.sortPrefix, forward: false };
  const page = await listPage(q, req);
  return {
    deliveries: page.items.map((i) => stripItem<Delivery>(i, [...PRIVATE, 'GSI2PK', 'GSI2SK', 'expires_at'])),
    pages: pagesSeen(page.extent, req),
    next_cursor: page.nextCursor,
  };
}

export interface DueRef {
  org_id: string;
  hook_id: string;
  id: string;
}

/** Pending deliveries due by `nowMs`, oldest first (at most `limit`). */
export async function dueDeliveries(nowMs: number, limit: number): Promise<DueRef[]> {
  const out = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :p AND GSI2SK < :upper',
      ExpressionAttributeValues: { ':p': deliveryKeys.due, ':upper': `${iso(nowMs)}~` },
      ProjectionExpression: 'org_id, hook_id, id',
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((i) => ({ org_id: String(i.org_id), hook_id: String(i.hook_id), id: String(i.id) }));
}
