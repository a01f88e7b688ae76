/**
 * Which records of the table's stream each consumer takes: the cloud's event source filters
 * (infra/constructs/webhook-delivery.ts, audit-trail.ts) and the local change feed
 * (infra/local/change-feed.ts) read these lists, so the local stage hands a handler exactly what
 * the cloud would: the counter writes of every check only to the usage consumer.
 */
import { AUDITED_ENTITIES } from '../shared/store/audit-feed';
import { REFUSAL_TALLY_ENTITY } from '../shared/store/usage-tallies';
import { PORTAL_EVENT_ENTITIES } from '../shared/store/change-feed';

export interface StreamConsumer {
  /** Entities whose INSERT and MODIFY records are taken (by the new image's `entity`). */
  written: readonly string[];
  /** Entities whose REMOVE records are taken (by the old image's `entity`). */
  removed: readonly string[];
}

export const STREAM_CONSUMERS = {
  /** Webhook routing: event items, keys, deliveries and the portal's developers and key requests written, keys removed. */
  webhookRouting: { written: ['event', 'key', 'delivery', ...PORTAL_EVENT_ENTITIES], removed: ['key'] },
  audit: { written: AUDITED_ENTITIES, removed: AUDITED_ENTITIES },
  /** Usage for billing: the check's counter writes (their tallies) and its refusal tallies, as written; nothing removed counts. */
  usage: { written: ['live_quota', 'live_quota_shard', REFUSAL_TALLY_ENTITY], removed: [] },
  /** Offboarding: each move of a run hands it to the worker. */
  offboarding: { written: ['offboarding'], removed: [] },
  /** Imports finished in the background: each move of a run hands it to the worker. */
  imports: { written: ['import_run'], removed: [] },
  /** The data-plane reconciler (-c dataPlane=on): every change of a definition or a grant moves the routing version. */
  dataPlane: { written: ['routing_version'], removed: [] },
} satisfies Record<string, StreamConsumer>;

interface StreamRecordLike {
  eventName?: string;
  dynamodb?: { NewImage?: Record<string, { S?: string } | unknown>; OldImage?: Record<string, { S?: string } | unknown> };
}

const entityOf = (image: Record<string, unknown> | undefined) => (image?.entity as { S?: string } | undefined)?.S;

/** Whether `consumer`'s filters let the record through, as the event source mapping's would. */
export function takes(consumer: StreamConsumer, record: StreamRecordLike): boolean {
  if (record.eventName === 'REMOVE') return consumer.removed.includes(entityOf(record.dynamodb?.OldImage) ?? '');
  return consumer.written.includes(entityOf(record.dynamodb?.NewImage) ?? '');
}
