/**
 * The data-plane check (contract §10). Cheap by design: the key's session comes from the session
 * cache or one read of the key (plus, in parallel, its policies and its organisation's session
 * when it has them); then conditional updates only. No Scan, no list Query.
 */
import { Refusal } from '../errors';
import { checkSession, DENIAL_STATUS, isUnlimited, nowSeconds, quotaRemaining, rateWindow, UNLIMITED, type DenialReason } from '../domain/quota';
import { crossedTriggers, EVENT_OF_REFUSAL } from '../domain/events';
import { limitsFor } from '../domain/sessions';
import { keyHash } from '../domain/key-ids';
import { getKeySession, refundKeyQuota, spendKeyQuota, spendKeyRate } from '../store/keys';
import { getOrgSession, spendOrgQuota } from '../store/org-sessions';
import { recordCheckEvent } from './events';
import { effectiveSession } from './keys';
import { sessionCache, type CachedSession } from './session-cache';

export type CheckResult =
  | { allowed: true; quota_remaining: number; quota_renews: number }
  | { allowed: false; reason: DenialReason; event?: RefusalEvent };

/** What the refusal's event (contract §11) says beyond the reason. */
interface RefusalEvent {
  orgRefused?: boolean;
  orgId?: string;
  data?: Record<string, unknown>;
}

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

/** Spends one unit of the key's quota (and its organisation's) for a request to `api_id`, or says why not. */
export async function checkRequest(input: { key: string; api_id: string }, now: number = nowSeconds()): Promise<CheckResult> {
  const hash = keyHash(input.key);
  const known = await sessionOf(hash);
  if (!known) return { allowed: false, reason: 'UnknownKey' };
  const { session, org } = known;
  const denied = checkSession(session, input.api_id, now);
  if (denied) return { allowed: false, reason: denied, event: { orgId: session.org_id } };

  const limits = limitsFor(session, input.api_id);
  const window = rateWindow(limits.rate, limits.per, now);
  if (window && !(await spendKeyRate(hash, limits.scope, window))) {
    return { allowed: false, reason: 'RateLimitExceeded', event: { orgId: session.org_id, data: { rate: limits.rate, per: limits.per } } };
  }

  const spent = await spendKeyQuota(hash, limits.scope, limits.quota_max, limits.quota_renewal_rate, now);
  if (!spent.ok) {
    const data = { quota_max: limits.quota_max, quota_remaining: 0, quota_renews: spent.renews };
    return { allowed: false, reason: 'QuotaExceeded', event: { orgId: session.org_id, data } };
  }

  if (org && !isUnlimited(org.quota_max)) {
    const orgSpent = await spendOrgQuota(session.org_id, org.quota_max!, org.quota_renewal_rate ?? 0, now);
    if (!orgSpent.ok) {
      // The organisation refused: the key's unit was not used, so give it back.
      await refundKeyQuota(hash, limits.scope, spent.renews);
      const data = { quota_max: org.quota_max, quota_remaining: 0, quota_renews: orgSpent.renews };
      return { allowed: false, reason: 'QuotaExceeded', event: { orgRefused: true, orgId: session.org_id, data } };
    }
  }
  const remaining = isUnlimited(limits.quota_max)
    ? UNLIMITED
    : quotaRemaining({ quota_max: limits.quota_max, used: spent.used, renews: spent.renews }, now);
  // Events (contract §11): a percentage of monitor.trigger_limits crossed by this very unit. Read
  // from the values the spend returned: no read or write unless one was crossed.
  const crossed = isUnlimited(limits.quota_max) ? [] : crossedTriggers(session.monitor?.trigger_limits, limits.quota_max, spent.used);
  if (crossed.length) {
    await Promise.all(
      crossed.map((p) =>
        recordCheckEvent({
          event: 'TriggerExceeded',
          apiId: input.api_id,
          keyHash: hash,
          orgId: session.org_id,
          data: { trigger_limit: p, quota_max: limits.quota_max, quota_remaining: remaining, quota_renews: spent.renews },
        }),
      ),
    );
  }
  return { allowed: true, quota_remaining: remaining, quota_renews: spent.renews };
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
export async function checkOrRefuse(input: { key: string; api_id: string }): Promise<Extract<CheckResult, { allowed: true }>> {
  const result = await checkRequest(input);
  if (result.allowed) return result;
  // The event is recorded before the answer (contract §11); the client's answer is the same for
  // the key's quota and its organisation's, the event says which one refused.
  await recordCheckEvent({
    event: result.event?.orgRefused ? 'OrgQuotaExceeded' : EVENT_OF_REFUSAL[result.reason],
    apiId: input.api_id,
    keyHash: keyHash(input.key),
    ...(result.event?.orgId ? { orgId: result.event.orgId } : {}),
    data: { reason: result.reason, ...(result.event?.data ?? {}) },
  });
  throw new Refusal(DENIAL_STATUS[result.reason], MESSAGES[result.reason], { allowed: false, reason: result.reason });
}
