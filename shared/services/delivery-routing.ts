/**
 * Webhook delivery, first stage (contract §11): the change feed (functions/hooks/change-feed.ts,
 * the same handler locally and in the cloud) routes events to the hooks an API's event handlers
 * name, and enqueues; it never calls a receiver. An event item or a key change makes one delivery
 * per routed hook (with its cooldown window, in one transaction), within a fixed budget per record
 * (docs/reference/limits.md); a delivery item that appears, or is queued again by a redeliver, becomes a
 * message of the attempt queue (the second stage: ./delivery-attempts.ts).
 *
 * At least once: every step is safe to repeat, and receivers dedupe by the payload `id`.
 */
import { createHash } from 'node:crypto';
import { WEBHOOK_LIMITS } from '../limits';
import { config } from '../config';
import { mapLimit } from '../lib/concurrency';
import { DEFAULT_EVENT_TIMEOUT, routesFor, type EventRoute } from '../domain/event-handlers';
import { deliveryIdOf, EVENT_MESSAGES, type EventPayload, type KeyEvent } from '../domain/events';
import { loadApi, loadApis } from '../store/apis';
import { loadKeySession } from '../store/keys';
import { limitsFor } from '../domain/key-rules';
import { feedChangeOf, type FeedChange, type FeedRecord } from '../store/change-feed';
import { insertDelivery, type Cooldown } from '../store/hook-deliveries';
import { loadRoutedHooks, routedHookKey } from '../store/hooks';
import { errorField, logger } from '../observability/logger';
import { METRIC, milliseconds } from '../observability/metrics';
import { enqueueAttempts, type AttemptMessage } from '../net/attempt-queue';
import { effectiveSession } from './session-cache';
import { orgStandingOf } from './org-limits';
import { loadPortalSettings } from '../store/portal';

/** Deliveries made side by side for one record. */
const ROUTING_WRITES_IN_FLIGHT = 25;

export type { FeedRecord };

const KEY_EVENT: Record<'created' | 'updated' | 'deleted', KeyEvent> = { created: 'TokenCreated', updated: 'TokenUpdated', deleted: 'TokenDeleted' };

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
        const c = feedChangeOf(r);
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
  if (c.kind === 'portal') return routePortal(c);
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

/**
 * A portal event goes to the hooks the organisation's portal settings name. Its payload names the
 * developer and, for a request, its API, plan, state and key hash (never a clear key or password).
 */
async function routePortal(c: Extract<FeedChange, { kind: 'portal' }>): Promise<void> {
  const s = c.subject;
  const orgId = String(s.org_id ?? '');
  const hookIds = (await loadPortalSettings(orgId))?.hook_ids ?? [];
  if (!hookIds.length) return;
  const request = s.entity === 'key_request';
  const data = request
    ? { request_id: s.id, developer_id: s.developer_id, developer_email: s.developer_email, plan_id: s.plan_id, state: s.state, reason: s.reason }
    : { developer_id: s.id, developer_email: s.email_address, state: s.state };
  const targets = c.events.flatMap((event, i) => {
    // One id per event of the record, so a record seen twice makes the same deliveries.
    const id = createHash('sha256').update(`${c.recordId}#${i}`).digest('hex').slice(0, 32);
    const payload: EventPayload = {
      id,
      event,
      occurred_at: c.occurredAt,
      org_id: orgId,
      api_id: request ? String(s.api_id) : '',
      key_hash: '',
      message: EVENT_MESSAGES[event],
      data: { ...data, ...(request && s.key_hash ? { key_hash: s.key_hash } : {}) },
    };
    return hookIds.map((hookId) => ({ orgId, route: { hookId }, payload }));
  });
  await makeDeliveries(targets);
}

interface Target {
  orgId: string;
  route: EventRoute;
  payload: EventPayload;
}

/**
 * One delivery per target whose hook exists (one BatchGetItem reads them all), at most
 * `WEBHOOK_LIMITS.deliveriesPerRecord`; handlers with an inline target, unknown APIs, deleted
 * hooks and suspended organisations (contract §9: their events are not kept for later) route nothing.
 */
async function makeDeliveries(all: Target[]): Promise<void> {
  const orgIds = [...new Set(all.map((t) => t.orgId))];
  const standings = new Map(await Promise.all(orgIds.map(async (o) => [o, await orgStandingOf(o)] as const)));
  const live = all.filter((t) => standings.get(t.orgId)?.active !== false);
  const targets = live.slice(0, WEBHOOK_LIMITS.deliveriesPerRecord);
  if (live.length > targets.length) {
    logger.warn('event reaches more webhooks than one record delivers to; the rest are skipped', {
      event: all[0]!.payload.event,
      event_id: all[0]!.payload.id,
      hooks: live.length,
      delivered: targets.length,
    });
  }
  if (targets.length === 0) return;
  const hooks = await loadRoutedHooks(targets.map((t) => ({ orgId: t.orgId, hookId: t.route.hookId })));
  const nowMs = Date.now();
  await mapLimit(targets, ROUTING_WRITES_IN_FLIGHT, async ({ orgId, route: r, payload }) => {
    const hook = hooks.get(routedHookKey(orgId, r.hookId));
    if (!hook) return;
    const seconds = r.eventTimeout ?? hook.event_timeout ?? DEFAULT_EVENT_TIMEOUT;
    const cooldown: Cooldown | undefined = payload.key_hash ? { event: cooldownEvent(payload), keyHash: payload.key_hash, seconds } : undefined;
    await insertDelivery(
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
