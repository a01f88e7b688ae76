/** The pure part of offboarding (shared/domain/offboarding.ts): months and days to look under, how found items are cut, what a run shows. */
import { describe, expect, it } from 'vitest';
import { countByEntity, daysBefore, firstChunk, monthsSince, progressOf, type Found } from '../../shared/domain/offboarding';

const item = (entity: string, n: number): Found => ({ PK: `${entity}#${n}`, SK: 'X', entity });

describe('offboarding, the pure part', () => {
  it('months from the creation month to now, across a year', () => {
    expect(monthsSince('2025-11-30T23:59:59Z', Date.parse('2026-02-01T00:00:00Z'))).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(monthsSince('2026-02-10T00:00:00Z', Date.parse('2026-02-11T00:00:00Z'))).toEqual(['2026-02']);
  });

  it('days back from now, newest first', () => {
    expect(daysBefore(Date.parse('2026-03-01T12:00:00Z'), 3)).toEqual(['2026-03-01', '2026-02-28', '2026-02-27']);
  });

  it("cuts whole objects while they fit, and never puts an object's listed item before its children", () => {
    const a = [item('kact', 1), item('key', 1)];
    const b = [item('kact', 2), item('kact', 3), item('key', 2)];
    expect(firstChunk([a, b], 5)).toEqual([...a, ...b]);
    expect(firstChunk([a, b], 4)).toEqual(a);
    // One object larger than a transaction: its first items only (its listed item, last, stays for later).
    expect(firstChunk([b], 2)).toEqual([item('kact', 2), item('kact', 3)]);
  });

  it('counts by entity, and the progress shows only kinds deleted, with their total', () => {
    expect(countByEntity([item('a', 1), item('b', 1), item('a', 2)])).toEqual({ a: 2, b: 1 });
    const run = {
      org_id: 'o',
      state: 'deleting' as const,
      step: 1,
      started_at: '2026-01-01T00:00:00.000Z',
      deleting_from_ms: Date.parse('2026-01-01T00:00:05Z'),
    };
    expect(progressOf({ ...run, deleted: { key: 3, api: 2, live_quota: 0 } })).toEqual({
      org_id: 'o',
      state: 'deleting',
      step: 'keys',
      steps_done: 1,
      started_at: '2026-01-01T00:00:00.000Z',
      deleting_from: '2026-01-01T00:00:05.000Z',
      finished_at: null,
      deleted: { api: 2, key: 3 },
      deleted_total: 5,
    });
    expect(progressOf({ ...run, state: 'done', finished_at: '2026-01-01T00:01:00.000Z', deleted: {} })).toMatchObject({ step: null, steps_done: 11 });
    expect(progressOf({ ...run, state: 'fencing', deleted: {} })).toMatchObject({ step: null, steps_done: 0 });
  });
});
