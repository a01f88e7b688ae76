/**
 * The rate headers the check and the external-authorization route answer
 * (docs/using/serving-apis.md), as the reference gateway names them: `X-RateLimit-Limit`
 * (quota_max), `X-RateLimit-Remaining` and `X-RateLimit-Reset` (when the quota window renews, epoch
 * seconds), for a key with a quota; and `Retry-After` on every 429.
 */
import { isUnlimited } from './quota';

export interface QuotaFigures {
  quota_max: number;
  remaining: number;
  renews: number;
}

/** The quota's headers; none for an unlimited quota (nothing to count down). */
export function quotaHeaders(q: QuotaFigures | undefined): Record<string, string> {
  if (!q || isUnlimited(q.quota_max)) return {};
  return { 'X-RateLimit-Limit': String(q.quota_max), 'X-RateLimit-Remaining': String(Math.max(0, q.remaining)), 'X-RateLimit-Reset': String(q.renews) };
}

/**
 * Whole seconds until the window that refused ends, at least 1 (a window ending this second is
 * worth one more try next second). A quota that never renews says so with the seconds until
 * its window's end of time, which no client will wait for.
 */
export function retryAfterSeconds(until: number, now: number): number {
  return Math.max(1, Math.ceil(until - now));
}
