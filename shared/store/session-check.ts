/**
 * The data-plane check (decisions §10). Cheap by design: the key's session comes from the
 * session cache or one read of the key (plus, in parallel, its policies and its organisation's
 * session when it has them); then conditional updates only. No Scan, no list Query.
 */
import { checkSession, isUnlimited, quotaRemaining, rateWindow, UNLIMITED, type DenialReason } from '../domain/quota';
import { limitsFor } from '../domain/sessions';
import { keyHash } from '../domain/key-ids';
import { sessionKeys } from './keys';
import { effectiveSession, getKeySession } from './gw-keys';
import { getOrgSession } from './org-sessions';
import { sessionCache, type CachedSession } from './session-cache';
import { refundQuota, spendQuota, spendRate } from './live-quota';

export type CheckResult =
  | { allowed: true; quota_remaining: number; quota_renews: number }
  | { allowed: false; reason: DenialReason };

/** The key's effective session and its organisation's, from the cache or the table. */
async function sessionOf(hash: string): Promise<CachedSession | undefined> {
  const cached = sessionCache.get(hash);
  if (cached) return cached;
  const stored = await getKeySession(hash);
  if (!stored) return undefined;
  const [session, org] = await Promise.all([effectiveSession(stored), stored.org_id ? getOrgSession(stored.org_id) : undefined]);
  const found = { session, org };
  sessionCache.set(hash, found);
  return found;
}

export async function checkRequest(input: { key: string; api_id: string }, now: number): Promise<CheckResult> {
  const hash = keyHash(input.key);
  const known = await sessionOf(hash);
  if (!known) return { allowed: false, reason: 'UnknownKey' };
  const { session, org } = known;
  const denied = checkSession(session, input.api_id, now);
  if (denied) return { allowed: false, reason: denied };

  const limits = limitsFor(session, input.api_id);
  const window = rateWindow(limits.rate, limits.per, now);
  if (window && !(await spendRate(sessionKeys.rate(hash, limits.scope, window.start), window))) {
    return { allowed: false, reason: 'RateLimitExceeded' };
  }

  const quotaKey = sessionKeys.quota(hash, limits.scope);
  const spent = await spendQuota(quotaKey, limits.quota_max, limits.quota_renewal_rate, now);
  if (!spent.ok) return { allowed: false, reason: 'QuotaExceeded' };

  if (org && !isUnlimited(org.quota_max)) {
    const orgSpent = await spendQuota(sessionKeys.orgQuota(session.org_id), org.quota_max!, org.quota_renewal_rate ?? 0, now);
    if (!orgSpent.ok) {
      // The organisation refused: the key's unit was not used, so give it back.
      await refundQuota(quotaKey, spent.renews);
      return { allowed: false, reason: 'QuotaExceeded' };
    }
  }
  const remaining = isUnlimited(limits.quota_max)
    ? UNLIMITED
    : quotaRemaining({ quota_max: limits.quota_max, used: spent.used, renews: spent.renews }, now);
  return { allowed: true, quota_remaining: remaining, quota_renews: spent.renews };
}
