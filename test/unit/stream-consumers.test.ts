/**
 * Which records each consumer of the table's stream takes (infra/stream-consumers.ts): one set of
 * Lambda filter patterns that the cloud's mappings are given and the local change feed judges
 * records by, so a check's counter writes reach the usage consumer alone, on either stage.
 */
import { describe, expect, it } from 'vitest';
import { passesFilters } from '../../infra/local/emulator/event-filter';
import { STREAM_CONSUMERS } from '../../infra/stream-consumers';

type Image = Record<string, { S: string }>;
const written = (entity: string, more: Image = {}, eventName: 'INSERT' | 'MODIFY' = 'MODIFY') => ({
  eventName,
  dynamodb: { NewImage: { entity: { S: entity }, ...more } },
});
const removed = (entity: string) => ({ eventName: 'REMOVE', dynamodb: { OldImage: { entity: { S: entity } } } });
const takes = (consumer: keyof typeof STREAM_CONSUMERS, record: unknown) => passesFilters(STREAM_CONSUMERS[consumer], record);
const COUNTERS = ['live_quota', 'live_quota_shard'];

describe('stream consumers', () => {
  it('webhook routing takes events, keys and deliveries written and keys removed; never a counter', () => {
    for (const e of ['event', 'key', 'delivery']) expect(takes('webhookRouting', written(e, {}, 'INSERT'))).toBe(true);
    expect(takes('webhookRouting', removed('key'))).toBe(true);
    expect(takes('webhookRouting', removed('delivery'))).toBe(false);
    for (const e of ['counter', ...COUNTERS, 'org_limit', 'key_activity']) expect(takes('webhookRouting', written(e))).toBe(false);
  });

  it('the audit trail takes the audited objects written and removed; never a counter or a record without an entity', () => {
    for (const e of ['api', 'key', 'policy', 'hook', 'org', 'user']) {
      expect(takes('audit', written(e))).toBe(true);
      expect(takes('audit', removed(e))).toBe(true);
    }
    for (const e of ['counter', ...COUNTERS, 'idempotency', 'routing_version']) expect(takes('audit', written(e))).toBe(false);
    expect(takes('audit', { eventName: 'MODIFY', dynamodb: { NewImage: {} } })).toBe(false);
  });

  it('the usage figures take the writes of counters that carry a tally and of refusal tallies; no other counter write, nothing removed', () => {
    const tallied = { tally_of: { S: 'o1#a1#2026-11-29' } };
    for (const e of COUNTERS) {
      expect(takes('usage', written(e, tallied))).toBe(true);
      // A counter no spend has counted a request on yet: a key's create or reset.
      expect(takes('usage', written(e))).toBe(false);
      expect(takes('usage', removed(e))).toBe(false);
    }
    expect(takes('usage', written('usage_refusals'))).toBe(true);
    for (const e of ['key', 'event', 'api']) expect(takes('usage', written(e, tallied))).toBe(false);
  });

  it('the offboarding and import workers take the moves of their runs under way only', () => {
    expect(takes('offboarding', written('offboarding', { state: { S: 'deleting' } }))).toBe(true);
    expect(takes('offboarding', written('offboarding', { state: { S: 'done' } }))).toBe(false);
    expect(takes('imports', written('import_run', { state: { S: 'importing' } }))).toBe(true);
    for (const state of ['done', 'failed']) expect(takes('imports', written('import_run', { state: { S: state } }))).toBe(false);
    expect(takes('imports', written('offboarding', { state: { S: 'importing' } }))).toBe(false);
  });
});
