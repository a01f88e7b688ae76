/**
 * The data-plane check (contract §10). Cheap by design: the key's session comes from the session
 * cache or one read of the key (plus, in parallel, its policies and its organisation's session
 * when it has them); then an allowed check is one conditional UpdateItem on the key's counter
 * (its quota and rate windows together, shared/store/live-quota/), plus one on the
 * organisation's when it has a quota. No Scan, no list Query.
 */
import { Refusal } from '../errors';
import { checkSession, DENIAL_STATUS, isUnlimited, nowSeconds, quotaRemaining, rateWindow, UNLIMITED, type DenialReason } from '../domain/quota';
import { limitsFor } from '../domain/key-rules';
import { keyHash } from '../domain/key-ids';
import { loadKeySession, refundKeyQuota, spendKeyQuota } from '../store/keys';
import { loadOrgSession, spendOrgQuota } from '../store/org-sessions';
import { recordCheckRefusal, recordTriggerCrossings } from './events';
import { effectiveSession, sessionCache, type CachedSession } from './session-cache';

type CheckResult =
  | {
      allowed: true;
      quota_remaining: number;
      quota_renews: number;
      /** What the key's counter write returned: units spent in the window (with this one) of quota_max. */
      used: number;
      quota_max: number;
    }
  | { allowed: false; reason: DenialReason; org?: true };

/** The key's effective session and its organisation's, from the cache or the table. */
async function sessionOf(hash: string): Promise<CachedSession | undefined> {
  const cached = sessionCache.get(hash);
  if (cached) return cached;
  const stored = await loadKeySession(hash);
  if (!stored) return undefined;
  const [session, org] = await Promise.all([effectiveSession(stored), stored.org_id ? loadOrgSession(stored.org_id) : undefined]);
  const found = { session, org };
  sessionCache.set(hash, found);
  return found;
}

/** Spends one unit of the key's quota (and its organisation's) for a request to `api_id`, or says why not. */
async function checkRequest(input: { key: string; api_id: string }, now: number = nowSeconds()): Promise<CheckResult> {
  const hash = keyHash(input.key);
  const known = await sessionOf(hash);
  if (!known) return { allowed: false, reason: 'UnknownKey' };
  const { session, org } = known;
  const denied = checkSession(session, input.api_id, now);
  if (denied) return { allowed: false, reason: denied };

  const limits = limitsFor(session, input.api_id);
  const spent = await spendKeyQuota(
    hash,
    limits.scope,
    { max: limits.quota_max, renewalRate: limits.quota_renewal_rate, rate: rateWindow(limits.rate, limits.per, now) },
    now,
  );
  if (!spent.ok) return { allowed: false, reason: spent.reason };

  if (org && !isUnlimited(org.quota_max)) {
    const orgSpent = await spendOrgQuota(session.org_id, org.quota_max!, org.quota_renewal_rate ?? 0, now);
    if (!orgSpent.ok) {
      // The organisation refused: the key's unit was not used, so give it back.
      await refundKeyQuota(spent.receipt);
      return { allowed: false, reason: 'QuotaExceeded', org: true };
    }
  }
  const remaining = isUnlimited(limits.quota_max)
    ? UNLIMITED
    : quotaRemaining({ quota_max: limits.quota_max, used: spent.used, renews: spent.renews }, now);
  // Contract §11: from the count this spend returned, so each percentage fires once per window.
  await recordTriggerCrossings({ apiId: input.api_id, keyHash: hash, orgId: session.org_id, triggerLimits: session.monitor?.trigger_limits, quotaMax: limits.quota_max, used: spent.used, remaining, renews: spent.renews });
  return { allowed: true, quota_remaining: remaining, quota_renews: spent.renews, used: spent.used, quota_max: limits.quota_max };
}

/** What a refused check says, per reason. */
const MESSAGES: Record<DenialReason, string> = {
  UnknownKey: 'Key not authorised',
  KeyInactive: 'Key is inactive',
  KeyExpired: 'Key has expired',
  AccessDenied: 'Key does not grant this API',
  QuotaExceeded: 'Quota exceeded',
  RateLimitExceeded: 'Rate limit exceeded',
};

/** POST /gw/sessions/check: the live quota when allowed; a 403 or 429 Refusal naming the reason otherwise. */
export async function checkOrRefuse(input: { key: string; api_id: string }): Promise<{ allowed: true; quota_remaining: number; quota_renews: number }> {
  const result = await checkRequest(input);
  if (!result.allowed) {
    await recordCheckRefusal(input.api_id, keyHash(input.key), result.reason, result.org === true);
    throw new Refusal(DENIAL_STATUS[result.reason], MESSAGES[result.reason], { allowed: false, reason: result.reason });
  }
  return { allowed: true, quota_remaining: result.quota_remaining, quota_renews: result.quota_renews };
}
