/**
 * Pure quota, rate and session rules (contract §6 and §10). Times are Unix epoch seconds.
 *
 * The storage that enforces them (one conditional UpdateItem per allowed check, the hot-key
 * shards) is shared/store/live-quota/ (RELIABILITY.md "Live quotas"); this module holds the
 * arithmetic it relies on, so it can be tested without a table:
 * - a quota window ends at `renews` (NEVER_RENEWS when it never renews) and renews lazily;
 * - a rate window is the fixed window of `per` seconds that holds now (rateWindow());
 * - a counter split over shards gives shard i of n the share shareOf(total, i, n), so the shares
 *   of any total add up to it exactly, and a smaller total never has a larger share;
 * - sharded quota windows renew on one grid (nextOnGrid()), so every shard counts the same
 *   window and the shares of quota_max cap the window's total.
 */
import { urlAllowed, type RequestLine } from './allowed-urls';

/** quota_max at or below 0 (the gateway writes -1) puts no cap on requests. */
export const UNLIMITED = -1;

/**
 * `renews` of a window that never renews (quota_renewal_rate <= 0): 9999-12-31T23:59:59Z.
 * A real time rather than 0, so the renewal condition `renews <= :now` needs no special case and
 * readers of quota_renews see a date that reads as "never".
 */
export const NEVER_RENEWS = 253_402_300_799;

export function isUnlimited(quotaMax: number | undefined | null): boolean {
  return quotaMax === undefined || quotaMax === null || quotaMax <= 0;
}

export function nowSeconds(date: Date = new Date()): number {
  return Math.floor(date.getTime() / 1000);
}

/** End of a window starting now; NEVER_RENEWS when the quota does not renew. */
export function renewsAt(now: number, renewalRate: number | undefined | null): number {
  if (renewalRate === undefined || renewalRate === null || renewalRate <= 0) return NEVER_RENEWS;
  return Math.min(Math.floor(now) + Math.floor(renewalRate), NEVER_RENEWS);
}

/** A live quota window as its counter holds it: units spent, and when the window ends. */
export interface LiveWindow {
  used: number;
  renews: number;
}

/**
 * Shard `i`'s share of `total` units over `n` shards: the remainder goes to the first shards.
 * Sum over i = total; share(a) <= share(b) for a <= b. Totals at or below 0 share nothing.
 */
export function shareOf(total: number, i: number, n: number): number {
  if (!(total > 0)) return 0;
  const whole = Math.floor(total);
  return Math.floor(whole / n) + (i < whole % n ? 1 : 0);
}

/**
 * The end of the window that holds `now` on the grid of `renewalRate`-second windows through
 * `renews` (an elapsed window's end): renews + k × renewalRate, the first such time after now.
 * A quota that never renews stays NEVER_RENEWS.
 */
export function nextOnGrid(renews: number, renewalRate: number, now: number): number {
  const step = Math.floor(renewalRate);
  if (!(step > 0) || renews >= NEVER_RENEWS) return NEVER_RENEWS;
  if (renews > now) return renews;
  return Math.min(renews + (Math.floor((now - renews) / step) + 1) * step, NEVER_RENEWS);
}

/** Whether a live window has elapsed and the next spend must renew it first. */
export function windowElapsed(state: Pick<LiveWindow, 'renews'>, now: number): boolean {
  return state.renews <= now;
}

/** quota_remaining as the session shows it: -1 when unlimited, never below 0, full after the window. */
export function quotaRemaining(state: LiveWindow & { quota_max: number }, now: number): number {
  if (isUnlimited(state.quota_max)) return UNLIMITED;
  if (windowElapsed(state, now)) return state.quota_max;
  return Math.max(0, state.quota_max - state.used);
}

/** `rate` requests per `per` seconds; either at or below 0 (the gateway writes -1) is no limit. */
export function isRateLimited(rate: number | undefined | null, per: number | undefined | null): boolean {
  return typeof rate === 'number' && typeof per === 'number' && rate > 0 && per > 0;
}

/** Start of the fixed window of `per` seconds that holds `now`. */
export function windowStart(now: number, per: number): number {
  if (!(per > 0)) throw new RangeError('per must be above 0');
  return Math.floor(now / per) * per;
}

export interface RateWindow {
  /** Requests allowed in this window. */
  limit: number;
  /** Window start and end (epoch seconds); `end` is also the counter item's TTL. */
  start: number;
  end: number;
}

/**
 * The fixed window a request at `now` counts in, or null when unlimited. A fractional rate
 * (0.5 per 1 s) becomes one request per stretched window (2 s), since a window cannot allow half
 * a request; a rate of 2.7 allows 2, never more than asked.
 */
export function rateWindow(rate: number | undefined | null, per: number | undefined | null, now: number): RateWindow | null {
  if (!isRateLimited(rate, per)) return null;
  const r = rate as number;
  const seconds = r >= 1 ? (per as number) : (per as number) / r;
  const limit = r >= 1 ? Math.floor(r) : 1;
  const start = windowStart(now, seconds);
  return { limit, start, end: start + seconds };
}

export type DenialReason = 'UnknownKey' | 'KeyInactive' | 'KeyExpired' | 'OrgSuspended' | 'AccessDenied' | 'QuotaExceeded' | 'RateLimitExceeded';

/** HTTP status of each denial (contract §10). */
export const DENIAL_STATUS: Record<DenialReason, 403 | 429> = {
  UnknownKey: 403,
  KeyInactive: 403,
  KeyExpired: 403,
  OrgSuspended: 403,
  AccessDenied: 403,
  QuotaExceeded: 429,
  RateLimitExceeded: 429,
};

/** `expires` at or below 0 never expires (the gateway documents -1 and treats 0 the same way). */
export function isExpired(expires: number | undefined | null, now: number): boolean {
  return typeof expires === 'number' && expires > 0 && now > expires;
}

interface CheckedSession {
  is_inactive?: boolean | undefined;
  expires?: number | undefined;
  access_rights?: Record<string, unknown> | null | undefined;
}

/**
 * The checks that need no counter, in the gateway's order: inactive, expired, then the API's
 * access entry and its path rules (allowed_urls). Pass the session after applyPolicies(), so
 * rights granted by policies count. A key without an entry for the API is denied, even when it
 * has no entries at all.
 */
export function checkSession(
  session: CheckedSession,
  apiId: string,
  now: number,
  request?: RequestLine,
): Extract<DenialReason, 'KeyInactive' | 'KeyExpired' | 'AccessDenied'> | null {
  if (session.is_inactive === true) return 'KeyInactive';
  if (isExpired(session.expires, now)) return 'KeyExpired';
  const rights = session.access_rights;
  if (!rights || !Object.hasOwn(rights, apiId) || !rights[apiId]) return 'AccessDenied';
  if (!urlAllowed(rights[apiId], request)) return 'AccessDenied';
  return null;
}
