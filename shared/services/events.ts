/**
 * What the data plane records for webhooks (contract §11). The check never calls a webhook: a
 * refusal, or a spend that crossed a `monitor.trigger_limits` percentage, becomes one PutItem of
 * an event item, which the table's change feed carries to the delivery (services/delivery-routing.ts).
 * Kept apart from the delivery so the check's function loads none of it.
 */
import { randomUUID } from 'node:crypto';
import { crossedTriggers, EVENT_MESSAGES, EVENT_OF_REFUSAL, type CheckEvent, type EventPayload } from '../domain/events';
import { isUnlimited, type DenialReason } from '../domain/quota';
import { TtlCache } from '../lib/ttl-cache';
import { errorField, logger } from '../observability/logger';
import { putEvent } from '../store/events';

/**
 * How often one warm process records the same refusal (event, API and key; for an unknown key,
 * event and API): a client hammering a refused key, or spraying made-up keys, costs the table
 * one write a second per process instead of one per request (contract §11). Deliveries are
 * limited further by each hook's cooldown.
 */
const REFUSAL_EVENT_MS = 1_000;
const recentRefusals = new TtlCache<true>(() => REFUSAL_EVENT_MS);

interface CheckEventInput {
  event: CheckEvent;
  apiId: string;
  keyHash: string;
  /** The key's organisation when the key is known; the delivery uses the API's. */
  orgId?: string;
  data?: Record<string, unknown>;
}

/**
 * Records one event of the check. A storage failure here is logged and does not change the
 * check's answer: the refusal (or the allowed request) is what the gateway asked for, and the
 * event is a notification about it, not part of it.
 */
async function recordCheckEvent(e: CheckEventInput, now: Date = new Date()): Promise<void> {
  const payload: EventPayload = {
    id: randomUUID(),
    event: e.event,
    occurred_at: now.toISOString(),
    org_id: e.orgId ?? '',
    api_id: e.apiId,
    key_hash: e.keyHash,
    message: EVENT_MESSAGES[e.event],
    data: e.data ?? {},
  };
  try {
    await putEvent(payload);
  } catch (err) {
    logger.error('event not recorded', { event: e.event, api_id: e.apiId, error: errorField(err) });
  }
}

/**
 * A refused check's event: the reason's event, or `OrgQuotaExceeded` when the organisation's quota
 * refused (the client's answer is the same for both; the event says which). The delivery reads
 * the API's organisation, so the check reads nothing more for it.
 */
export async function recordCheckRefusal(apiId: string, keyHash: string, reason: DenialReason, orgRefused: boolean): Promise<void> {
  const event = orgRefused ? 'OrgQuotaExceeded' : EVENT_OF_REFUSAL[reason];
  // Claimed before the write, synchronously, so concurrent refusals in this process record one.
  const seen = `${event}\n${apiId}\n${reason === 'UnknownKey' ? '' : keyHash}`;
  if (recentRefusals.get(seen)) return;
  recentRefusals.set(seen, true);
  await recordCheckEvent({ event, apiId, keyHash, data: { reason } });
}

export interface SpendOutcome {
  apiId: string;
  keyHash: string;
  orgId: string;
  triggerLimits: readonly number[] | null | undefined;
  quotaMax: number;
  /** The key's usage as the spend's conditional ADD returned it. */
  used: number;
  remaining: number;
  renews: number;
}

/**
 * `TriggerExceeded` for each `monitor.trigger_limits` percentage this spend crossed. Computed from
 * the count the spend's own write returned, which the conditional ADD hands to exactly one
 * request, so each percentage fires once per quota window; nothing is read or written unless one
 * was crossed.
 */
export async function recordTriggerCrossings(s: SpendOutcome): Promise<void> {
  if (isUnlimited(s.quotaMax)) return;
  const crossed = crossedTriggers(s.triggerLimits, s.quotaMax, s.used);
  await Promise.all(
    crossed.map((p) =>
      recordCheckEvent({
        event: 'TriggerExceeded',
        apiId: s.apiId,
        keyHash: s.keyHash,
        orgId: s.orgId,
        data: { trigger_limit: p, quota_max: s.quotaMax, quota_remaining: s.remaining, quota_renews: s.renews },
      }),
    ),
  );
}
