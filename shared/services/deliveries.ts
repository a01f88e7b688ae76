/**
 * Webhook delivery (contract §11): routes events to the hooks an API's event handlers name,
 * attempts deliveries (signed, guarded, logged), and serves the delivery log. Two stages, so that
 * no organisation's receivers hold up another's:
 *
 * - The change feed (functions/hooks/change-feed.ts, the same handler locally and in the cloud)
 *   routes and enqueues, and never calls a receiver. An event item or a key change makes one
 *   delivery per routed hook (with its cooldown window, in one transaction), within a fixed
 *   budget per record (docs/reference/limits.md); a delivery item that appears, or is queued again by a
 *   redeliver, becomes a message of the attempt queue.
 * - The attempt queue (shared/net/attempt-queue.ts: an SQS fair queue in the cloud read by
 *   functions/hooks/attempt-queue.ts, a fair queue in the process locally) runs each attempt
 *   within its organisation's budget of attempts in flight. A failed attempt is queued again with
 *   its delay (locally the due index brings it back).
 *
 * At least once: every step is safe to repeat, and receivers dedupe by the payload `id`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { NotFound } from '../errors';
import { privateTargetsAllowed } from '../ip-addresses';
import { WEBHOOK_LIMITS } from '../limits';
import { config } from '../config';
import { mapLimit } from '../domain/concurrency';
import { DEFAULT_EVENT_TIMEOUT, routesFor, type EventRoute } from '../domain/event-handlers';
import { deliveryIdOf, EVENT_MESSAGES, type EventName, type EventPayload, type KeyEvent } from '../domain/events';
import { pageRequest } from '../domain/paging';
import { nextDelay } from '../domain/retry-schedule';
import { signatureHeader } from '../domain/webhook-signature';
import type { PageQuery } from '../schemas/common';
import { headerMapProblems } from '../schemas/webhook-headers';
import { loadApi, loadApis } from '../store/apis';
import { loadKeySession } from '../store/keys';
import { limitsFor } from '../domain/key-rules';
import { readFeedRecord, type FeedChange, type FeedRecord } from '../store/change-feed';
import { claimAttemptSlot, releaseAttemptSlot } from '../store/delivery-budget';
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
import { getHookForDelivery, getRoutedHooks, routedHookKey } from '../store/hooks';
import { callWebhook, type CallResult } from '../net/webhook-call';
import { errorField, logger } from '../observability/logger';
import { count, METRIC, milliseconds } from '../observability/metrics';
import { enqueueAttempts, type AttemptMessage } from '../net/attempt-queue';
import { effectiveSession } from './session-cache';
import { openSigningSecret } from './hooks';

/** How long one attempt holds its delivery and its organisation's budget: longer than the 10 s call, so no two attempts overlap. */
const LEASE_MS = 30_000;
/** Deliveries made side by side for one record. */
const ROUTING_WRITES_IN_FLIGHT = 25;

export type { FeedRecord, AttemptMessage };

const KEY_EVENT: Record<'created' | 'updated' | 'deleted', KeyEvent> = { created: 'TokenCreated', updated: 'TokenUpdated', deleted: 'TokenDeleted' };

// --- the change feed ---------------------------------------------------------------------------

/**
 * One batch of the change feed; answers the sequence numbers of the records that failed (a
 * storage or queue failure), so the feed hands the batch over again from the first of them and
 * keeps what came before (partial batch failures). A failed record without a sequence number
 * fails the whole batch. Every step is safe to repeat: a delivery id is derived from its event
 * and hook, and an attempt needs a claim.
 */
export async function processChangeFeed(records: readonly FeedRecord[]): Promise<string[]> {
  const failed: string[] = [];
  const fail = (r: FeedRecord, e: unknown) => {
    const seq = r.dynamodb?.SequenceNumber;
    if (!seq) throw e;
    logger.error('change feed: record failed; it is handed over again', { sequence: seq, error: errorField(e) });
    failed.push(seq);
  };
  const attempts: Array<{ record: FeedRecord; message: AttemptMessage }> = [];
  const nowMs = Date.now();
  for (const r of records) {
    // How far behind the table the feed runs (the stream's iterator age, record by record).
    const at = r.dynamodb?.ApproximateCreationDateTime;
    if (at !== undefined) milliseconds(METRIC.changeFeedAge, nowMs - at * 1000);
  }
  await Promise.all(
    records.map(async (r) => {
      try {
        const c = readFeedRecord(r);
        if (c?.kind === 'delivery') attempts.push({ record: r, message: c.ref });
        else if (c) await route(c);
      } catch (e) {
        fail(r, e);
      }
    }),
  );
  if (attempts.length) {
    let refused: Set<AttemptMessage>;
    try {
      refused = new Set(
        await enqueueAttempts(
          config().hookQueueUrl,
          attempts.map((a) => a.message),
        ),
      );
    } catch (e) {
      refused = new Set(attempts.map((a) => a.message));
      logger.error('change feed: the attempt queue failed', { error: errorField(e) });
    }
    for (const a of attempts) if (refused.has(a.message)) fail(a.record, new Error('the attempt queue did not take the message'));
  }
  return failed;
}

async function route(c: Exclude<FeedChange, { kind: 'delivery' }>): Promise<void> {
  if (c.kind === 'event') return routeEvent(c.payload);
  const session = await effectiveSession(c.session);
  const event = KEY_EVENT[c.change];
  const granted = Object.keys(session.access_rights ?? {}).sort();
  // A key may grant thousands of APIs: one record reads at most this many definitions.
  const apiIds = granted.slice(0, WEBHOOK_LIMITS.apisPerKeyEvent);
  if (granted.length > apiIds.length) {
    logger.warn('key event routed through the first APIs of the key only', { event, key_hash: session.key_hash, apis: granted.length, routed: apiIds.length });
  }
  const apis = (await loadApis(apiIds)).sort((a, b) => (a.api_id < b.api_id ? -1 : 1));
  // One event per key change, so a hook that several of the key's APIs name gets it once.
  const id = createHash('sha256').update(c.recordId).digest('hex').slice(0, 32);
  const targets = new Map<string, Target>();
  for (const api of apis) {
    for (const r of routesFor(api.classic, event)) {
      const k = routedHookKey(api.org_id, r.hookId);
      if (targets.has(k)) continue;
      targets.set(k, {
        orgId: api.org_id,
        route: r,
        payload: {
          id,
          event,
          occurred_at: c.occurredAt,
          org_id: api.org_id,
          api_id: api.api_id,
          key_hash: session.key_hash,
          message: EVENT_MESSAGES[event],
          data: { alias: session.alias ?? '', expires: session.expires ?? 0, apis: apiIds },
        },
      });
    }
  }
  await makeDeliveries([...targets.values()]);
}

/**
 * A refusal's payload names the limit that refused (contract §11): read here, off the request
 * path, from the key's session as it is now, so the check writes no more than the event.
 */
async function withKeyLimits(p: EventPayload): Promise<EventPayload> {
  if ((p.event !== 'QuotaExceeded' && p.event !== 'RatelimitExceeded') || !p.key_hash) return p;
  const stored = await loadKeySession(p.key_hash);
  if (!stored) return p;
  const limits = limitsFor(await effectiveSession(stored), p.api_id);
  const data = p.event === 'QuotaExceeded' ? { quota_max: limits.quota_max, quota_remaining: 0 } : { rate: limits.rate, per: limits.per };
  return { ...p, data: { ...p.data, ...data } };
}

/** Cooldown windows are per (hook, event, key); a trigger's percentage is an event of its own. */
function cooldownEvent(p: EventPayload): string {
  return p.event === 'TriggerExceeded' && p.data.trigger_limit !== undefined ? `${p.event}:${String(p.data.trigger_limit)}` : p.event;
}

/** An event of the check goes to the hooks the API's enabled handlers name for it, in the API's organisation. */
async function routeEvent(event: EventPayload): Promise<void> {
  const api = await loadApi(event.api_id);
  if (!api) return;
  const routes = routesFor(api.classic, event.event);
  if (routes.length === 0) return;
  const payload: EventPayload = { ...(await withKeyLimits(event)), org_id: api.org_id };
  await makeDeliveries(routes.map((r) => ({ orgId: api.org_id, route: r, payload })));
}

interface Target {
  orgId: string;
  route: EventRoute;
  payload: EventPayload;
}

/**
 * One delivery per target whose hook exists (one BatchGetItem reads them all), at most
 * `WEBHOOK_LIMITS.deliveriesPerRecord`; handlers with an inline target, unknown APIs and deleted
 * hooks route nothing.
 */
async function makeDeliveries(all: Target[]): Promise<void> {
  const targets = all.slice(0, WEBHOOK_LIMITS.deliveriesPerRecord);
  if (all.length > targets.length) {
    logger.warn('event reaches more webhooks than one record delivers to; the rest are skipped', {
      event: all[0]!.payload.event,
      event_id: all[0]!.payload.id,
      hooks: all.length,
      delivered: targets.length,
    });
  }
  if (targets.length === 0) return;
  const hooks = await getRoutedHooks(targets.map((t) => ({ orgId: t.orgId, hookId: t.route.hookId })));
  const nowMs = Date.now();
  await mapLimit(targets, ROUTING_WRITES_IN_FLIGHT, async ({ orgId, route: r, payload }) => {
    const hook = hooks.get(routedHookKey(orgId, r.hookId));
    if (!hook) return;
    const seconds = r.eventTimeout ?? hook.event_timeout ?? DEFAULT_EVENT_TIMEOUT;
    const cooldown: Cooldown | undefined = payload.key_hash ? { event: cooldownEvent(payload), keyHash: payload.key_hash, seconds } : undefined;
    await createDelivery(
      {
        id: deliveryIdOf(payload.occurred_at, payload.id, r.hookId),
        org_id: orgId,
        hook_id: r.hookId,
        event_id: payload.id,
        event: payload.event,
        api_id: payload.api_id,
        payload: JSON.stringify(payload),
        created_at: new Date(nowMs).toISOString(),
      },
      cooldown,
      nowMs,
    );
  });
}

// --- attempts ----------------------------------------------------------------------------------

/** Sends `messages` to the attempt queue; a message it does not take fails the caller, so its source is handed over again. */
async function requeue(messages: AttemptMessage[], delaySeconds: number): Promise<void> {
  const refused = await enqueueAttempts(config().hookQueueUrl, messages, delaySeconds);
  if (refused.length) throw new Error(`the attempt queue did not take ${refused.length} message(s)`);
}

/**
 * One message of the attempt queue. The attempt runs only within its organisation's budget of
 * attempts in flight (WEBHOOK_LIMITS.attemptsInFlightPerOrg, across every worker): without room
 * the message goes back to the queue, later each time (2, 4, 8... at most 60 s), so one
 * organisation's slow receivers hold at most that many workers. A message that comes before its
 * delivery is due (SQS delays at most 15 minutes) is queued again for the rest of the wait; one
 * for a delivery that is no longer pending, or that another worker is attempting, is dropped.
 */
export async function runQueuedAttempt(m: AttemptMessage, nowMs: number = Date.now()): Promise<'attempted' | 'deferred' | 'dropped' | 'early'> {
  const leaseId = `${m.id}.${randomUUID().slice(0, 8)}`;
  const until = nowMs + LEASE_MS;
  if (!(await claimAttemptSlot(m.org_id, leaseId, nowMs, until, WEBHOOK_LIMITS.attemptsInFlightPerOrg))) {
    const deferrals = (m.deferrals ?? 0) + 1;
    await requeue([{ ...m, deferrals }], Math.min(60, 2 ** deferrals));
    return 'deferred';
  }
  const ref: DueRef = { org_id: m.org_id, hook_id: m.hook_id, id: m.id };
  try {
    if ((await attemptDelivery(ref, nowMs)) === 'attempted') return 'attempted';
  } finally {
    await releaseAttemptSlot(m.org_id, leaseId, until);
  }
  const d = await getDelivery(ref.org_id, ref.hook_id, ref.id);
  if (d?.status !== 'pending' || (d.next_at_ms ?? nowMs) <= nowMs) return 'dropped';
  await requeue([ref], Math.max(1, (d.next_at_ms! - nowMs) / 1000));
  return 'early';
}

/**
 * One attempt of a delivery, when it is pending, due and nobody else is attempting it. A failure
 * is scheduled again per HOOK_RETRY_SECONDS; after the schedule it is `failed`. The log keeps the
 * failure's class; what happened in detail goes to the service's own log.
 */
async function attemptDelivery(ref: DueRef, nowMs: number = Date.now()): Promise<'attempted' | 'skipped'> {
  const claimed = await claimAttempt(ref.org_id, ref.hook_id, ref.id, nowMs, LEASE_MS);
  if (!claimed) return 'skipped';
  const { delivery, lease } = claimed;
  const result = await call(delivery);
  const attempts = delivery.attempts + 1;
  const done = Date.now();
  if (!result.error) {
    await recordAttempt(delivery, lease, { status: 'delivered', responseCode: result.status, durationMs: result.durationMs }, done);
    count(METRIC.deliveryDelivered);
    const lag = done - eventTimeMs(delivery);
    if (Number.isFinite(lag)) milliseconds(METRIC.deliveryLag, lag);
    return 'attempted';
  }
  logger.info('webhook attempt failed', {
    org_id: delivery.org_id,
    hook_id: delivery.hook_id,
    delivery_id: delivery.id,
    attempt: attempts,
    error: result.error,
    ...(result.status !== undefined ? { status: result.status } : {}),
    detail: result.detail,
  });
  const delay = result.refused ? undefined : nextDelay(config().hookRetrySeconds, attempts);
  const outcome = {
    responseCode: result.status,
    durationMs: result.durationMs,
    error: result.error,
  };
  if (delay === undefined) {
    await recordAttempt(delivery, lease, { ...outcome, status: 'failed' }, done);
    count(METRIC.deliveryFailed);
    return 'attempted';
  }
  // Queued before it is recorded: a queue message that arrives before the record waits for it.
  await requeue([ref], delay);
  await recordAttempt(delivery, lease, { ...outcome, status: 'pending', nextAtMs: done + delay * 1000 }, done);
  count(METRIC.deliveryRetried);
  return 'attempted';
}

/** When the delivery's event happened (its payload's `occurred_at`); NaN when the payload does not say. */
function eventTimeMs(d: StoredDelivery): number {
  try {
    return Date.parse((JSON.parse(d.payload) as { occurred_at?: string }).occurred_at ?? '');
  } catch {
    return Number.NaN;
  }
}

/** A failure of the service's own side of a delivery, as the log shows it. */
type Attempt = Omit<CallResult, 'error'> & { error?: CallResult['error'] | 'hook_deleted' | 'refused_headers' | 'secret_unavailable' };

async function call(d: StoredDelivery): Promise<Attempt> {
  const found = await getHookForDelivery(d.org_id, d.hook_id);
  if (!found) return { durationMs: 0, error: 'hook_deleted', refused: true };
  const { hook, sealedSecret, previous } = found;
  // Checked again at delivery: a stored hook cannot carry a header the rules refuse today.
  const problems = headerMapProblems(hook.header_map);
  if (problems.length) return { durationMs: 0, error: 'refused_headers', detail: problems[0]!.message, refused: true };
  const secret = await openSigningSecret(d.org_id, d.hook_id, sealedSecret);
  if (!secret) return { durationMs: 0, error: 'secret_unavailable', detail: 'the signing secret cannot be opened (was the service key changed?)' };
  const now = Date.now();
  // During a rotation's window the replaced secret signs too (contract §11).
  const old =
    previous && now < previous.rotatedAtMs + config().hookSecretRotationMs ? await openSigningSecret(d.org_id, d.hook_id, previous.sealed) : undefined;
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
        'x-gw-signature': signatureHeader(old ? [secret, old] : [secret], Math.floor(now / 1000), d.payload),
      },
      body: d.payload,
    },
    { allowPrivate: privateTargetsAllowed() },
  );
}

/**
 * The local stage's stand-in for delayed queue messages (infra/local/change-feed.ts): queues the
 * pending deliveries whose time has come, from the due index, so retries (and deliveries left
 * pending by a stop) go out. It reads far enough (one page of small items) that one
 * organisation's backlog at the head of the index does not hide another's retries: the queue
 * then orders them fairly and takes each once. Answers how many it read.
 */
export async function queueDueDeliveries(nowMs: number = Date.now(), limit = 1000): Promise<number> {
  const due = await dueDeliveries(nowMs, limit);
  if (due.length) await requeue(due, 0);
  return due.length;
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
