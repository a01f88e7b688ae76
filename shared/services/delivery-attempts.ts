/**
 * Webhook delivery, second stage (contract §11): the attempt queue (shared/net/attempt-queue.ts:
 * an SQS fair queue in the cloud read by functions/hooks/attempt-queue.ts, a fair queue in the
 * process locally) runs each attempt, signed, guarded and logged, within its organisation's budget
 * of attempts in flight, so that no organisation's receivers hold up another's. A failed attempt
 * is queued again with its delay (locally the due index brings it back).
 *
 * At least once: every step is safe to repeat, and receivers dedupe by the payload `id`.
 */
import { randomUUID } from 'node:crypto';
import { privateTargetsAllowed } from '../ip-addresses';
import { WEBHOOK_LIMITS } from '../limits';
import { config } from '../config';
import { nextDelay } from '../domain/retry-schedule';
import { signatureHeader } from '../domain/webhook-signature';
import { headerMapProblems } from '../schemas/webhook-headers';
import { claimAttemptSlot, releaseAttemptSlot } from '../store/delivery-budget';
import { claimAttempt, dueDeliveries, loadDelivery, saveAttemptOutcome, type DueRef, type StoredDelivery } from '../store/hook-deliveries';
import { loadHookForDelivery } from '../store/hooks';
import { callWebhook, type CallResult } from '../net/webhook-call';
import { logger } from '../observability/logger';
import { count, METRIC, milliseconds } from '../observability/metrics';
import { enqueueAttempts, type AttemptMessage } from '../net/attempt-queue';
import { openSigningSecret } from './hooks';

/** How long one attempt holds its delivery and its organisation's budget: longer than the 10 s call, so no two attempts overlap. */
const LEASE_MS = 30_000;

export type { AttemptMessage };

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
  const d = await loadDelivery(ref.org_id, ref.hook_id, ref.id);
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
    await saveAttemptOutcome(delivery, lease, { status: 'delivered', responseCode: result.status, durationMs: result.durationMs }, done);
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
    await saveAttemptOutcome(delivery, lease, { ...outcome, status: 'failed' }, done);
    count(METRIC.deliveryFailed);
    return 'attempted';
  }
  // Queued before it is recorded: a queue message that arrives before the record waits for it.
  await requeue([ref], delay);
  await saveAttemptOutcome(delivery, lease, { ...outcome, status: 'pending', nextAtMs: done + delay * 1000 }, done);
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
  const found = await loadHookForDelivery(d.org_id, d.hook_id);
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
