/** The delivery log of a webhook (contract §11): its page, a redelivery, and a Ping sent through the delivery. */
import { randomUUID } from 'node:crypto';
import { NotFound } from '../errors';
import { deliveryIdOf, EVENT_MESSAGES, type EventName, type EventPayload } from '../domain/events';
import { pageRequest } from '../domain/paging';
import type { PageQuery } from '../schemas/common';
import { insertDelivery, loadDeliveryPage, saveRedelivery } from '../store/hook-deliveries';
import { loadHookForDelivery } from '../store/hooks';

/** GET /api/hooks/{hookID}/deliveries: newest first, paged; 404 for a hook that is not the organisation's. */
export async function listHookDeliveries(orgId: string, hookId: string, query: PageQuery) {
  if (!(await loadHookForDelivery(orgId, hookId))) throw new NotFound(`webhook ${hookId} not found`);
  return loadDeliveryPage(orgId, hookId, pageRequest(query));
}

/** POST .../deliveries/{deliveryID}/redeliver: one more attempt, due now (the change feed starts it). */
export async function redeliver(orgId: string, hookId: string, deliveryId: string): Promise<void> {
  if (!(await saveRedelivery(orgId, hookId, deliveryId, Date.now()))) throw new NotFound(`delivery ${deliveryId} not found`);
}

/** POST /api/hooks/{hookID}/test: a `Ping` delivery to the hook, attempted through the change feed. */
export async function pingHook(orgId: string, hookId: string): Promise<{ delivery_id: string; event_id: string }> {
  if (!(await loadHookForDelivery(orgId, hookId))) throw new NotFound(`webhook ${hookId} not found`);
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
  await insertDelivery(
    { id, org_id: orgId, hook_id: hookId, event_id: payload.id, event, api_id: '', payload: JSON.stringify(payload), created_at: payload.occurred_at },
    undefined,
    now.getTime(),
  );
  return { delivery_id: id, event_id: payload.id };
}
