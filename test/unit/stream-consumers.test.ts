/**
 * The local change feed hands each handler what the cloud's event source filters would
 * (infra/stream-consumers.ts): a check's counter writes reach neither consumer, on either stage.
 */
import { describe, expect, it } from 'vitest';
import { STREAM_CONSUMERS, takes } from '../../infra/stream-consumers';

const written = (entity: string, eventName: 'INSERT' | 'MODIFY' = 'MODIFY') => ({ eventName, dynamodb: { NewImage: { entity: { S: entity } } } });
const removed = (entity: string) => ({ eventName: 'REMOVE', dynamodb: { OldImage: { entity: { S: entity } } } });

describe('stream consumers', () => {
  it('webhook routing takes events, keys and deliveries written and keys removed; never a counter', () => {
    const c = STREAM_CONSUMERS.webhookRouting;
    for (const e of ['event', 'key', 'delivery']) expect(takes(c, written(e, 'INSERT'))).toBe(true);
    expect(takes(c, removed('key'))).toBe(true);
    expect(takes(c, removed('delivery'))).toBe(false);
    for (const e of ['counter', 'live_quota', 'live_quota_shard', 'org_limit', 'key_activity']) expect(takes(c, written(e))).toBe(false);
  });

  it('the audit trail takes the audited objects written and removed; never a counter or a record without an entity', () => {
    const c = STREAM_CONSUMERS.audit;
    for (const e of ['api', 'key', 'policy', 'hook', 'org', 'user']) {
      expect(takes(c, written(e))).toBe(true);
      expect(takes(c, removed(e))).toBe(true);
    }
    for (const e of ['counter', 'live_quota', 'idempotency', 'routing_version']) expect(takes(c, written(e))).toBe(false);
    expect(takes(c, { eventName: 'MODIFY', dynamodb: { NewImage: {} } })).toBe(false);
  });
});
