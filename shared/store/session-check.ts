/**
 * The data-plane check (decisions §10). Cheap by design: one GetItem for the key, then (in
 * parallel) its policies and its organisation's session when it has them, then conditional
 * updates only. No Query, no Scan.
 */
import { checkSession, isUnlimited, quotaRemaining, rateWindow, UNLIMITED, type DenialReason } from '../domain/quota';
import { limitsFor } from '../domain/sessions';
import { keyHash } from '../domain/key-ids';
import { sessionKeys } from './keys';
import { effectiveSession, getKeyItem } from './gw-keys';
import { getOrgSession } from './org-sessions';
import { refundQuota, spendQuota, spendRate } from './live-quota';

export type CheckResult =
  | { allowed: true; quota_remaining: number; quota_renews: number }
  | { allowed: false; reason: DenialReason };

export async function checkRequest(input: { key: string; api_id: string }, now: number): Promise<CheckResult> {
  const hash = keyHash(input.key);
  const item = await getKeyItem(hash);
  if (!item) return { allowed: false, reason: 'UnknownKey' };
  const [session, org] = await Promise.all([
    effectiveSession(item.session),
    item.session.org_id ? getOrgSession(item.session.org_id) : undefined,
  ]);
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
    const orgSpent = await spendQuota(sessionKeys.orgQuota(item.session.org_id), org.quota_max!, org.quota_renewal_rate ?? 0, now);
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
