/**
 * Webhook delivery (contract §11): routes events to the hooks an API's event handlers name,
 * attempts deliveries (signed, guarded, logged), schedules retries, and serves the delivery log.
 *
 * Everything starts from the table's change feed (functions/hooks/change-feed.ts, the same handler
 * locally and in the cloud): an event item or a key change makes one delivery per routed hook
 * (with its cooldown window, in one transaction); a delivery item that appears, or is queued
 * again by a redeliver, is attempted. A failed attempt is scheduled again: through the retry
 * queue in the cloud (functions/hooks/retry-queue.ts), from the due index locally. At least once:
 * receivers dedupe by the payload `id`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { NotFound } from '../errors';
import { privateTargetsAllowed } from '../ip-addresses';
import { config } from '../config';
import { DEFAULT_EVENT_TIMEOUT, handlersFor } from '../domain/event-handlers';
import { deliveryIdOf, EVENT_MESSAGES, type EventName, type EventPayload, type KeyEvent } from '../domain/events';
import { pageRequest } from '../domain/paging';
import { nextDelay } from '../domain/retry-schedule';
import { signatureHeader } from '../domain/webhook-signature';
import type { PageQuery } from '../schemas/common';
import { headerMapProblems } from '../schemas/webhook-headers';
import { getApi } from '../store/apis';
import { getKeySession } from '../store/keys';
import { limitsFor } from '../domain/sessions';
import { readFeedRecord, type FeedChange, type FeedRecord } from '../store/change-feed';
import {
  claimAttempt,
  createDelivery,
  dueDeliveries,
  getDelivery,
  listDeliveries,
  recordAttempt,
  requeueDelivery,
  type Cooldown,
  type DueRef,
  type StoredDelivery,
} from '../store/hook-deliveries';
import { getHookForDelivery } from '../store/hooks';
import { callWebhook, type CallResult } from '../net/webhook-call';
import { scheduleRetry } from '../net/retry-queue';
import { effectiveSession } from './keys';
import { openSigningSecret } from './hooks';

/** How long one attempt holds its delivery: longer than the 10 s call, so no two attempts overlap. */
const LEASE_MS = 30_000;

export type { FeedRecord, DueRef };

const KEY_EVENT: Record<'created' | 'updated' | 'deleted', KeyEvent> = { created: 'TokenCreated', updated: 'TokenUpdated', deleted: 'TokenDeleted' };

// --- the change feed ---------------------------------------------------------------------------

/**
 * One batch of the change feed. Routing and attempts of different records run side by side; a
 * storage failure throws, so the feed hands the batch over again (the cloud's event source
 * mapping bisects it), and every step is safe to repeat: a delivery id is derived from its event
 * and hook, and an attempt needs a claim.
 */
export async function processChangeFeed(records: readonly FeedRecord[]): Promise<void> {
  const changes = records.map(readFeedRecord).filter((c): c is FeedChange => c !== undefined);
  const routed = await Promise.all(changes.map(route));
  await Promise.all(routed.flat().map((ref) => attemptDelivery(ref)));
}

async function route(c: FeedChange): Promise<DueRef[]> {
  if (c.kind === 'delivery') return [c.ref];
  if (c.kind === 'event') {
    await routeEvent(c.payload);
    return [];
  }
  const session = await effectiveSession(c.session);
  const event = KEY_EVENT[c.change];
  await Promise.all(
    Object.keys(session.access_rights ?? {}).map((apiId) =>
      routeEvent({
        // One id per (feed record, API): a record handed over twice makes the same deliveries.
        id: createHash('sha256').update(`${c.recordId}\n${apiId}`).digest('hex').slice(0, 32),
        event,
        occurred_at: c.occurredAt,
        org_id: session.org_id,
        api_id: apiId,
        key_hash: session.key_hash,
        message: EVENT_MESSAGES[event],
        data: { alias: session.alias ?? '', expires: session.expires ?? 0, apis: Object.keys(session.access_rights ?? {}) },
      }),
    ),
  );
  return [];
}

/**
 * A refusal's payload names the limit that refused (contract §11): read here, off the request
 * path, from the key's session as it is now, so the check writes no more than the event.
 */
async function withKeyLimits(p: EventPayload): Promise<EventPayload> {
  if ((p.event !== 'QuotaExceeded' && p.event !== 'RatelimitExceeded') || !p.key_hash) return p;
  const stored = await getKeySession(p.key_hash);
  if (!stored) return p;
  const limits = limitsFor(await effectiveSession(stored), p.api_id);
  const data = p.event === 'QuotaExceeded' ? { quota_max: limits.quota_max, quota_remaining: 0 } : { rate: limits.rate, per: limits.per };
  return { ...p, data: { ...p.data, ...data } };
}

/** Cooldown windows are per (hook, event, key); a trigger's percentage is an event of its own. */
function cooldownEvent(p: EventPayload): string {
  return p.event === 'TriggerExceeded' && p.data.trigger_limit !== undefined ? `${p.event}:${String(p.data.trigger_limit)}` : p.event;
}

/**
 * Makes a delivery for each hook the API's enabled handlers name for this event, in the API's
 * organisation. Handlers with an inline target, unknown APIs and deleted hooks route nothing.
 */
async function routeEvent(event: EventPayload): Promise<void> {
  const api = await getApi(event.api_id);
  if (!api) return;
  const handlers = handlersFor(api.classic, event.event).filter((h) => h.hookId);
  if (handlers.length === 0) return;
  const payload: EventPayload = { ...(await withKeyLimits(event)), org_id: api.org_id };
  const nowMs = Date.now();
  await Promise.all(
    handlers.map(async (h) => {
      const found = await getHookForDelivery(api.org_id, h.hookId!);
      if (!found) return;
      const seconds = h.eventTimeout ?? found.hook.event_timeout ?? DEFAULT_EVENT_TIMEOUT;
      const cooldown: Cooldown | undefined = payload.key_hash ? { event: cooldownEvent(payload), keyHash: payload.key_hash, seconds } : undefined;
      await createDelivery(
        {
          id: deliveryIdOf(payload.occurred_at, payload.id, h.hookId!),
          org_id: api.org_id,
          hook_id: h.hookId!,
          event_id: payload.id,
          event: payload.event,
          api_id: payload.api_id,
          payload: JSON.stringify(payload),
          created_at: new Date(nowMs).toISOString(),
        },
        cooldown,
        nowMs,
      );
    }),
  );
}

// --- attempts ----------------------------------------------------------------------------------

/**
 * One attempt of a delivery, when it is pending, due and nobody else is attempting it. A failure
 * is scheduled again per HOOK_RETRY_SECONDS; after the schedule it is `failed`.
 */
export async function attemptDelivery(ref: DueRef, nowMs: number = Date.now()): Promise<'attempted' | 'skipped'> {
  const claimed = await claimAttempt(ref.org_id, ref.hook_id, ref.id, nowMs, LEASE_MS);
  if (!claimed) return 'skipped';
  const { delivery, lease } = claimed;
  const result = await call(delivery);
  const attempts = delivery.attempts + 1;
  const done = Date.now();
  if (!result.error) {
    await recordAttempt(delivery, lease, { status: 'delivered', responseCode: result.status, durationMs: result.durationMs }, done);
    return 'attempted';
  }
  const delay = result.refused ? undefined : nextDelay(config().hookRetrySeconds, attempts);
  const outcome = {
    responseCode: result.status,
    durationMs: result.durationMs,
    error: result.error,
  };
  if (delay === undefined) {
    await recordAttempt(delivery, lease, { ...outcome, status: 'failed' }, done);
    return 'attempted';
  }
  // Queued before it is recorded: a queue message that arrives before the record waits for it.
  await scheduleRetry(config().hookRetryQueueUrl, ref, delay);
  await recordAttempt(delivery, lease, { ...outcome, status: 'pending', nextAtMs: done + delay * 1000 }, done);
  return 'attempted';
}

async function call(d: StoredDelivery): Promise<CallResult> {
  const found = await getHookForDelivery(d.org_id, d.hook_id);
  if (!found) return { durationMs: 0, error: 'the webhook was deleted', refused: true };
  const { hook, sealedSecret } = found;
  // Checked again at delivery: a stored hook cannot carry a header the rules refuse today.
  const problems = headerMapProblems(hook.header_map);
  if (problems.length) return { durationMs: 0, error: `header_map refused: ${problems[0]!.message}`, refused: true };
  const secret = await openSigningSecret(d.org_id, d.hook_id, sealedSecret);
  if (!secret) return { durationMs: 0, error: 'the signing secret cannot be opened (was the service key changed?)' };
  const t = Math.floor(Date.now() / 1000);
  return callWebhook(
    {
      method: hook.method,
      url: hook.target_path,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'gw-control-plane-webhooks',
        ...hook.header_map,
        'x-gw-event': d.event,
        'x-gw-delivery': d.id,
        'x-gw-signature': signatureHeader(secret, t, d.payload),
      },
      body: d.payload,
    },
    { allowPrivate: privateTargetsAllowed() },
  );
}

/**
 * A retry that came due (the retry queue's message, or the local stand-in's). A message that
 * arrives before its time (SQS delays at most 15 minutes) or while an attempt holds the delivery
 * is queued again for the rest of the wait; one for a delivery no longer pending is dropped.
 */
export async function retryDelivery(ref: DueRef, nowMs: number = Date.now()): Promise<void> {
  if ((await attemptDelivery(ref, nowMs)) === 'attempted') return;
  const d = await getDelivery(ref.org_id, ref.hook_id, ref.id);
  if (!d || d.status !== 'pending') return;
  const waitSeconds = Math.max(1, ((d.next_at_ms ?? nowMs) - nowMs) / 1000);
  await scheduleRetry(config().hookRetryQueueUrl, ref, waitSeconds);
}

/**
 * The local stage's stand-in for the retry queue (infra/local/change-feed.ts): attempts the pending
 * deliveries whose time has come, from the due index, so retries (and deliveries left pending by a
 * stop) go out without a queue. Answers how many were attempted.
 */
export async function attemptDueDeliveries(nowMs: number = Date.now(), limit = 25): Promise<number> {
  const due = await dueDeliveries(nowMs, limit);
  const done = await Promise.all(due.map((ref) => attemptDelivery(ref, nowMs)));
  return done.filter((d) => d === 'attempted').length;
}

// --- routes ------------------------------------------------------------------------------------

/** GET /api/hooks/{hookID}/deliveries: newest first, paged; 404 for a hook that is not the organisation's. */
export async function listHookDeliveries(orgId: string, hookId: string, query: PageQuery) {
  if (!(await getHookForDelivery(orgId, hookId))) throw new NotFound(`webhook ${hookId} not found`);
  return listDeliveries(orgId, hookId, pageRequest(query));
}

/** POST .../deliveries/{deliveryID}/redeliver: one more attempt, due now (the change feed starts it). */
export async function redeliver(orgId: string, hookId: string, deliveryId: string): Promise<void> {
  if (!(await requeueDelivery(orgId, hookId, deliveryId, Date.now()))) throw new NotFound(`delivery ${deliveryId} not found`);
}

/** POST /api/hooks/{hookID}/test: a `Ping` delivery to the hook, attempted through the change feed. */
export async function pingHook(orgId: string, hookId: string): Promise<{ delivery_id: string; event_id: string }> {
  if (!(await getHookForDelivery(orgId, hookId))) throw new NotFound(`webhook ${hookId} not found`);
  const now = new Date();
  const event: EventName = 'Ping';
  const payload: EventPayload = {
    id: randomUUID(),
    event,
    occurred_at: now.toISOString(),
    org_id: orgId,
    api_id: '',
    key_hash: '',
    message: EVENT_MESSAGES[event],
    data: { hook_id: hookId },
  };
  const id = deliveryIdOf(payload.occurred_at, payload.id, hookId);
  await createDelivery(
    { id, org_id: orgId, hook_id: hookId, event_id: payload.id, event, api_id: '', payload: JSON.stringify(payload), created_at: payload.occurred_at },
    undefined,
    now.getTime(),
  );
  return { delivery_id: id, event_id: payload.id };
}
