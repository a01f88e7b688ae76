import { describe, expect, it } from 'vitest';
import { TtlCache } from '../../shared/domain/ttl-cache';

describe('TtlCache', () => {
  it('answers an entry until its time is up', () => {
    const c = new TtlCache<number>(() => 1000);
    c.set('a', 1, 0);
    expect(c.get('a', 999)).toBe(1);
    expect(c.get('a', 1000)).toBeUndefined();
  });

  it('keeps nothing when the time is 0, and drops the oldest beyond its size', () => {
    const off = new TtlCache<number>(() => 0);
    off.set('a', 1, 0);
    expect(off.get('a', 0)).toBeUndefined();
    const small = new TtlCache<number>(() => 1000, 2);
    small.set('a', 1, 0);
    small.set('b', 2, 0);
    small.set('c', 3, 0);
    expect([small.get('a', 1), small.get('b', 1), small.get('c', 1)]).toEqual([undefined, 2, 3]);
    small.clear();
    expect(small.get('b', 1)).toBeUndefined();
  });
});
