/**
 * What the data plane records for webhooks (contract §11). The check never calls a webhook: a
 * refusal, or a spend that crossed a `monitor.trigger_limits` percentage, becomes one PutItem of
 * an event item, which the table's change feed carries to the delivery (services/deliveries.ts).
 * Kept apart from the delivery so the check's function loads none of it.
 */
import { randomUUID } from 'node:crypto';
import { EVENT_MESSAGES, type CheckEvent, type EventPayload } from '../domain/events';
import { putEvent } from '../store/events';

export interface CheckEventInput {
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
export async function recordCheckEvent(e: CheckEventInput, now: Date = new Date()): Promise<void> {
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
    // Services know no http logger; this is the same JSON line shape.
    console.error(JSON.stringify({ level: 'error', time: new Date().toISOString(), msg: 'event not recorded', event: e.event, api_id: e.apiId, error: err instanceof Error ? err.message : String(err) }));
  }
}
