import { describe, expect, it } from 'vitest';
import {
  checkSession,
  isExpired,
  isRateLimited,
  isUnlimited,
  NEVER_RENEWS,
  nowSeconds,
  quotaRemaining,
  rateWindow,
  renewsAt,
  UNLIMITED,
  windowElapsed,
  windowStart,
} from '../../shared/domain/quota';

const NOW = 1_700_000_000;

describe('quota limits', () => {
  it('treats quota_max at or below 0 as unlimited', () => {
    expect([-1, 0, undefined, null].map(isUnlimited)).toEqual([true, true, true, true]);
    expect(isUnlimited(1)).toBe(false);
  });

  it('renews renewal_rate seconds from now, or never when the rate is at or below 0', () => {
    expect(renewsAt(NOW, 3600)).toBe(NOW + 3600);
    expect(renewsAt(NOW, 0)).toBe(NEVER_RENEWS);
    expect(renewsAt(NOW, -1)).toBe(NEVER_RENEWS);
    expect(renewsAt(NOW, undefined)).toBe(NEVER_RENEWS);
    expect(new Date(NEVER_RENEWS * 1000).toISOString()).toBe('9999-12-31T23:59:59.000Z');
  });

  it('reports the remaining quota from the live item', () => {
    const state = { quota_max: 20, used: 7, renews: NOW + 10 };
    expect(quotaRemaining(state, NOW)).toBe(13);
    expect(quotaRemaining({ ...state, used: 25 }, NOW)).toBe(0);
    // An elapsed window is full again even before the lazy renewal has written it.
    expect(quotaRemaining(state, NOW + 10)).toBe(20);
    expect(quotaRemaining({ ...state, quota_max: -1 }, NOW)).toBe(UNLIMITED);
  });

  it('elapses a window at its renews time, and a never-renewing one never', () => {
    expect(windowElapsed({ renews: NOW }, NOW)).toBe(true);
    expect(windowElapsed({ renews: NOW + 1 }, NOW)).toBe(false);
    expect(windowElapsed({ renews: NEVER_RENEWS }, NOW + 100 * 365 * 86400)).toBe(false);
  });

  it('converts dates to whole epoch seconds', () => {
    expect(nowSeconds(new Date(1_700_000_000_999))).toBe(NOW);
  });
});

describe('rate windows', () => {
  it('limits only when rate and per are both above 0', () => {
    expect(isRateLimited(10, 60)).toBe(true);
    expect(isRateLimited(-1, -1)).toBe(false);
    expect(isRateLimited(0, 60)).toBe(false);
    expect(isRateLimited(10, 0)).toBe(false);
    expect(rateWindow(-1, 60, NOW)).toBeNull();
  });

  it('puts requests of the same fixed window together', () => {
    expect(windowStart(125, 60)).toBe(120);
    expect(windowStart(179.9, 60)).toBe(120);
    expect(windowStart(180, 60)).toBe(180);
    expect(() => windowStart(1, 0)).toThrow(RangeError);
  });

  it('gives the limit and TTL of the window', () => {
    expect(rateWindow(10, 60, 125)).toEqual({ limit: 10, start: 120, end: 180 });
    expect(rateWindow(2.7, 1, 125.5)).toEqual({ limit: 2, start: 125, end: 126 });
    // Half a request per second: one request per two seconds.
    expect(rateWindow(0.5, 1, 125)).toEqual({ limit: 1, start: 124, end: 126 });
  });
});

describe('checkSession', () => {
  const session = { access_rights: { api1: { api_id: 'api1' } } };

  it('allows an active, unexpired key with rights to the API', () => {
    expect(checkSession(session, 'api1', NOW)).toBeNull();
    expect(checkSession({ ...session, expires: NOW }, 'api1', NOW)).toBeNull();
  });

  it('never expires a key whose expires is 0 or -1', () => {
    expect(isExpired(0, NOW)).toBe(false);
    expect(isExpired(-1, NOW)).toBe(false);
    expect(checkSession({ ...session, expires: 0 }, 'api1', NOW)).toBeNull();
    expect(checkSession({ ...session, expires: -1 }, 'api1', NOW)).toBeNull();
  });

  it('answers KeyInactive before KeyExpired before AccessDenied', () => {
    const all = { is_inactive: true, expires: NOW - 1, access_rights: {} };
    expect(checkSession(all, 'api1', NOW)).toBe('KeyInactive');
    expect(checkSession({ ...all, is_inactive: false }, 'api1', NOW)).toBe('KeyExpired');
    expect(checkSession({ ...all, is_inactive: false, expires: 0 }, 'api1', NOW)).toBe('AccessDenied');
  });

  it('denies an API without an entry, also for keys without any rights', () => {
    expect(checkSession(session, 'api2', NOW)).toBe('AccessDenied');
    expect(checkSession({ access_rights: null }, 'api1', NOW)).toBe('AccessDenied');
    expect(checkSession({}, 'api1', NOW)).toBe('AccessDenied');
    expect(checkSession(session, 'toString', NOW)).toBe('AccessDenied');
  });
});
