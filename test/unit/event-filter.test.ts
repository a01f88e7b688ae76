/** The emulator's reading of Lambda event filters (infra/local/emulator/event-filter.ts), on the rules the templates use. */
import { describe, expect, it } from 'vitest';
import { passesFilters, unsupportedRule } from '../../infra/local/emulator/event-filter';

const record = (entity: string, extra: Record<string, unknown> = {}, eventName = 'MODIFY') => ({
  eventName,
  dynamodb: { NewImage: { entity: { S: entity }, ...extra } },
});
const counters = { eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { entity: { S: ['live_quota'] }, tally_of: { S: [{ exists: true }] } } } };

describe('event filters as the emulator reads them', () => {
  it('every key must match, any rule of a leaf may', () => {
    expect(passesFilters([counters], record('live_quota', { tally_of: { S: 'o\na\n2026-11-28' } }))).toBe(true);
    expect(passesFilters([counters], record('live_quota'))).toBe(false);
    expect(passesFilters([counters], record('key', { tally_of: { S: 'o\na\n2026-11-28' } }))).toBe(false);
    expect(passesFilters([counters], record('live_quota', { tally_of: { S: 'x' } }, 'REMOVE'))).toBe(false);
  });

  it('patterns are alternatives; no pattern lets everything through', () => {
    const refusals = { dynamodb: { NewImage: { entity: { S: ['usage_refusals'] } } } };
    expect(passesFilters([counters, refusals], record('usage_refusals'))).toBe(true);
    expect(passesFilters([], record('anything'))).toBe(true);
  });

  it('exists: false, prefix and anything-but', () => {
    expect(passesFilters([{ dynamodb: { NewImage: { gone: [{ exists: false }] } } }], record('x'))).toBe(true);
    expect(passesFilters([{ dynamodb: { NewImage: { entity: { S: [{ prefix: 'live_' }] } } } }], record('live_quota_shard'))).toBe(true);
    expect(passesFilters([{ dynamodb: { NewImage: { entity: { S: [{ 'anything-but': ['key'] }] } } } }], record('key'))).toBe(false);
  });

  it('a rule it cannot evaluate is named, never guessed', () => {
    expect(unsupportedRule({ a: [{ numeric: ['>', 1] }] })).toMatch(/numeric/);
    expect(unsupportedRule(counters)).toBeUndefined();
  });
});
