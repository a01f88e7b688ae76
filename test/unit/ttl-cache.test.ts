import { describe, expect, it } from 'vitest';
import { clearEveryCache, TtlCache } from '../../shared/lib/ttl-cache';

describe('TtlCache', () => {
  it('answers an entry until its time is up', () => {
    const c = new TtlCache<number>(() => 1000);
    c.set('a', 1, 0);
    expect(c.get('a', 999)).toBe(1);
    expect(c.get('a', 1000)).toBeUndefined();
  });

  it('expires a fixed time after the entry was stored, however often it is used (fake clock)', () => {
    const c = new TtlCache<string>(() => 2000);
    c.set('key', 'owner', 0);
    // A credential used every 500 ms, each hit stored again as the credential check used to.
    const seen: Array<string | undefined> = [];
    for (let t = 500; t <= 10_000; t += 500) {
      const hit = c.get('key', t);
      seen.push(hit);
      if (hit) c.set('key', hit, t);
    }
    // Live at 0.5, 1.0, 1.5 s; gone from 2.0 s on (nothing reloads it in this loop).
    expect(seen.slice(0, 3)).toEqual(['owner', 'owner', 'owner']);
    expect(seen.slice(3).every((v) => v === undefined)).toBe(true);
  });

  it('a set on a live entry replaces the value but keeps its expiry; after expiry a set starts a new period', () => {
    const c = new TtlCache<number>(() => 1000);
    c.set('a', 1, 0);
    c.set('a', 2, 900);
    expect(c.get('a', 950)).toBe(2);
    expect(c.get('a', 1000)).toBeUndefined();
    c.set('a', 3, 1000);
    expect(c.get('a', 1999)).toBe(3);
    expect(c.get('a', 2000)).toBeUndefined();
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

  it('clearEveryCache empties every cache of the process (a process pointed at another table answers from none)', () => {
    const credentials = new TtlCache<string>(() => 60_000);
    const sessions = new TtlCache<number>(() => 60_000);
    credentials.set('key', 'owner');
    sessions.set('session', 1);
    clearEveryCache();
    expect([credentials.get('key'), sessions.get('session')]).toEqual([undefined, undefined]);
  });

  it('forgets one entry, or every entry under a prefix, and keeps the rest (a write to one key)', () => {
    const hints = new TtlCache<number>(() => 60_000);
    for (const k of ['KEY#a|QUOTA', 'KEY#a|QUOTA#api', 'KEY#ab|QUOTA', 'KEY#b|QUOTA']) hints.set(k, 1);
    hints.deletePrefixed('KEY#a|');
    expect(['KEY#a|QUOTA', 'KEY#a|QUOTA#api', 'KEY#ab|QUOTA', 'KEY#b|QUOTA'].map((k) => hints.get(k))).toEqual([undefined, undefined, 1, 1]);
    hints.delete('KEY#b|QUOTA');
    expect([hints.get('KEY#ab|QUOTA'), hints.get('KEY#b|QUOTA')]).toEqual([1, undefined]);
  });

  it('forgets the entries whose value a test picks and names them (the keys a policy write reaches)', () => {
    const sessions = new TtlCache<{ policies: string[] }>(() => 60_000);
    sessions.set('a', { policies: ['p'] });
    sessions.set('b', { policies: ['q'] });
    sessions.set('c', { policies: ['q', 'p'] });
    expect(sessions.deleteWhere((s) => s.policies.includes('p'))).toEqual(['a', 'c']);
    expect(['a', 'b', 'c'].map((k) => sessions.get(k))).toEqual([undefined, { policies: ['q'] }, undefined]);
  });
});
