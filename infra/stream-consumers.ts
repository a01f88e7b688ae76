/**
 * Which records of the table's stream each consumer takes, said once, as Lambda's event filter
 * patterns: the cloud's event source mappings are given these (infra/constructs/webhook-delivery.ts,
 * audit-trail.ts, usage-count.ts, offboarding.ts, organisation-import.ts, data-plane.ts), and the
 * local change feed (infra/local/change-feed.ts) judges each record by the same patterns with the
 * emulator's reading of Lambda's rules, so the local stage hands a handler exactly what the cloud
 * would: the counter writes of every check reach the usage consumer alone, and only once the
 * counter carries a tally.
 */
import { TALLY } from '../shared/domain/billing';
import { AUDITED_ENTITIES } from '../shared/store/audit-feed';
import { REFUSAL_TALLY_ENTITY } from '../shared/store/usage-tallies';
import { PORTAL_EVENT_ENTITIES } from '../shared/store/change-feed';
import type { Pattern } from './local/emulator/event-filter';

/** Records that write an item of one of `entities` (by the new image's `entity`), whose new image also matches `more`. */
const written = (entities: readonly string[], more: Pattern = {}): Pattern => ({
  eventName: ['INSERT', 'MODIFY'],
  dynamodb: { NewImage: { entity: { S: [...entities] }, ...more } },
});

/** Records that remove an item of one of `entities` (by the old image's `entity`). */
const removed = (entities: readonly string[]): Pattern => ({ eventName: ['REMOVE'], dynamodb: { OldImage: { entity: { S: [...entities] } } } });

/** The counter items whose writes carry a check's tally (shared/store/live-quota/). */
const COUNTERS = ['live_quota', 'live_quota_shard'];

export const STREAM_CONSUMERS = {
  /** Webhook routing: event items, keys, deliveries and the portal's developers and key requests written, keys removed. */
  webhookRouting: [written(['event', 'key', 'delivery', ...PORTAL_EVENT_ENTITIES]), removed(['key'])],
  audit: [written(AUDITED_ENTITIES), removed(AUDITED_ENTITIES)],
  /**
   * Usage for billing: writes of a counter that carries a tally (`tally_of`, set by the first
   * spend that counted a request) and of refusal tallies; nothing removed counts.
   */
  usage: [written(COUNTERS, { [TALLY.of]: { S: [{ exists: true }] } }), written([REFUSAL_TALLY_ENTITY])],
  /** Offboarding: each move of a run not done hands it to the worker. */
  offboarding: [written(['offboarding'], { state: { S: [{ 'anything-but': ['done'] }] } })],
  /** Imports finished in the background: each move of a run under way hands it to the worker. */
  imports: [written(['import_run'], { state: { S: ['importing'] } })],
  /** The data-plane reconciler (-c dataPlane=on): every change of a definition or a grant moves the routing version. */
  dataPlane: [written(['routing_version'])],
} satisfies Record<string, readonly Pattern[]>;
