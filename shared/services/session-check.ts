/**
 * The data-plane check (contract §10). Cheap by design: the key's session comes from the session
 * cache or one read of the key (plus, in parallel, its policies and its organisation's session
 * when it has them); then an allowed check is one conditional UpdateItem on the key's counter
 * (its quota and rate windows together, shared/store/live-quota/), plus one on the
 * organisation's when it has a quota. No Scan, no list Query.
 */
import { BadRequest, Refusal } from '../errors';
import { hasUrlRules, type RequestLine } from '../domain/allowed-urls';
import { loadRe2 } from '../lib/re2-engine';
import { decidedPath } from '../domain/request-path';
import { quotaHeaders, retryAfterSeconds } from '../domain/rate-headers';
import { checkSession, DENIAL_STATUS, isUnlimited, nowSeconds, quotaRemaining, rateWindow, UNLIMITED, type DenialReason } from '../domain/quota';
import { limitsFor } from '../domain/key-rules';
import { keyHash } from '../domain/key-ids';
import { loadKeySession, refundKeyQuota, spendKeyQuota } from '../store/keys';
import { loadOrgSession, spendOrgQuota } from '../store/org-sessions';
import { recordCheckRefusal, recordTriggerCrossings } from './events';
import { effectiveSession, sessionCache, type CachedSession } from './session-cache';
import { orgStandingOf } from './org-limits';
import { count, countBy, METRIC } from '../observability/metrics';
import { dayOf } from '../domain/billing';
import { countRefusal } from '../store/usage-tallies';

/** What a check is asked: the key, the API and (for the key's path rules) the request's path and method. */
export interface CheckInput {
  key: string;
  api_id: string;
  /** The path as the client sent it. */
  path?: string | undefined;
  /** The path after the API's listen path, when the caller found the API by it (the external-authorization route). */
  api_path?: string | undefined;
  method?: string | undefined;
}

type CheckResult =
  | {
      allowed: true;
      key_hash: string;
      org_id: string;
      quota_remaining: number;
      quota_renews: number;
      /** What the key's counter write returned: units spent in the window (with this one) of quota_max. */
      used: number;
      quota_max: number;
    }
  | {
      allowed: false;
      reason: DenialReason;
      /** The key's organisation, once the key is known: whose refusal the usage figures count. */
      org_id?: string;
      org?: true;
      /** When the window that refused ends (epoch seconds): a 429's Retry-After. */
      until?: number;
      /** The refusing quota's quota_max, for the rate headers of a spent quota. */
      quota_max?: number;
    };

/** The key's effective session and its organisation's, from the cache or the table. */
async function sessionOf(hash: string): Promise<CachedSession | undefined> {
  const cached = sessionCache.get(hash);
  if (cached) return cached;
  const stored = await loadKeySession(hash);
  if (!stored) return undefined;
  // The organisation's standing is read beside them (kept by org-limits.ts), so the check below finds it.
  const [session, org] = await Promise.all([
    effectiveSession(stored),
    stored.org_id ? loadOrgSession(stored.org_id) : undefined,
    stored.org_id ? orgStandingOf(stored.org_id) : undefined,
  ]);
  const found = { session, org };
  sessionCache.set(hash, found);
  return found;
}

/** Spends one unit of the key's quota (and its organisation's) for a request to `api_id`, or says why not. */
async function checkRequest(input: CheckInput, now: number = nowSeconds()): Promise<CheckResult> {
  const hash = keyHash(input.key);
  const known = await sessionOf(hash);
  if (!known) return { allowed: false, reason: 'UnknownKey' };
  const { session, org } = known;
  const orgId = session.org_id ? { org_id: session.org_id } : {};
  if (session.org_id && !(await orgStandingOf(session.org_id)).active) return { allowed: false, reason: 'OrgSuspended', ...orgId };
  if (hasUrlRules(session.access_rights?.[input.api_id])) await loadRe2();
  const denied = checkSession(session, input.api_id, now, requestLine(input));
  if (denied) return { allowed: false, reason: denied, ...orgId };

  const limits = limitsFor(session, input.api_id);
  const orgSpends = !!org && !isUnlimited(org.quota_max);
  // The request's last spend counts it in the usage figures, in that same write (shared/domain/billing.ts).
  const tally = session.org_id ? { org_id: session.org_id, api_id: input.api_id, day: dayOf(now) } : undefined;
  const spent = await spendKeyQuota(
    hash,
    limits.scope,
    {
      max: limits.quota_max,
      renewalRate: limits.quota_renewal_rate,
      rate: rateWindow(limits.rate, limits.per, now),
      ...(tally && !orgSpends ? { tally } : {}),
    },
    now,
  );
  if (!spent.ok) return { allowed: false, reason: spent.reason, until: spent.until, quota_max: limits.quota_max, ...orgId };

  if (org && orgSpends) {
    const orgSpent = await spendOrgQuota(session.org_id, org.quota_max!, org.quota_renewal_rate ?? 0, now, tally);
    if (!orgSpent.ok) {
      // The organisation refused: the key's unit was not used, so give it back.
      await refundKeyQuota(spent.receipt);
      return { allowed: false, reason: 'QuotaExceeded', org: true, until: orgSpent.until, quota_max: org.quota_max!, ...orgId };
    }
  }
  const remaining = isUnlimited(limits.quota_max) ? UNLIMITED : quotaRemaining({ quota_max: limits.quota_max, used: spent.used, renews: spent.renews }, now);
  // Contract §11: from the count this spend returned, so each percentage fires once per window.
  await recordTriggerCrossings({
    apiId: input.api_id,
    keyHash: hash,
    orgId: session.org_id,
    triggerLimits: session.monitor?.trigger_limits,
    quotaMax: limits.quota_max,
    used: spent.used,
    remaining,
    renews: spent.renews,
  });
  return {
    allowed: true,
    key_hash: hash,
    org_id: session.org_id,
    quota_remaining: remaining,
    quota_renews: spent.renews,
    used: spent.used,
    quota_max: limits.quota_max,
  };
}

/** The paths the key's path rules are tried on: as sent, and within the API when known. */
function requestLine(input: CheckInput): RequestLine | undefined {
  const paths = [input.path, input.api_path].filter((p): p is string => typeof p === 'string');
  return paths.length ? { paths, method: input.method } : undefined;
}

/** What a refused check says, per reason. */
const MESSAGES: Record<DenialReason, string> = {
  UnknownKey: 'Key not authorised',
  KeyInactive: 'Key is inactive',
  KeyExpired: 'Key has expired',
  OrgSuspended: "The key's organisation is suspended",
  AccessDenied: 'Key does not grant this API',
  QuotaExceeded: 'Quota exceeded',
  RateLimitExceeded: 'Rate limit exceeded',
};

/**
 * The check's whole decision, as every caller gets it (POST /gw/sessions/check, the
 * external-authorization route, the Lambda authorizer): the spend, and a refusal's event for the
 * webhooks (contract §11).
 */
export async function decide(input: CheckInput, now: number = nowSeconds()): Promise<CheckResult> {
  const result = await checkRequest(input, now);
  if (!result.allowed) {
    // The organisation's quota refuses with the key's reason; the metric tells them apart as the event does.
    const reason = result.org === true ? 'OrgQuotaExceeded' : result.reason;
    countBy(METRIC.checkRefused, 'reason', reason);
    await Promise.all([
      recordCheckRefusal(input.api_id, keyHash(input.key), result.reason, result.org === true),
      // An unknown key has no organisation to count it for.
      result.org_id && reason !== 'UnknownKey' ? countRefusal({ org_id: result.org_id, api_id: input.api_id, day: dayOf(now) }, reason) : undefined,
    ]);
  } else count(METRIC.checkAllowed);
  return result;
}

/** The rate headers of an answer (docs/using/serving-apis.md): the quota's, and Retry-After on a 429. */
export function rateHeadersOf(result: CheckResult, now: number = nowSeconds()): Record<string, string> {
  if (result.allowed) return quotaHeaders({ quota_max: result.quota_max, remaining: result.quota_remaining, renews: result.quota_renews });
  if (result.until === undefined) return {};
  const spentQuota =
    result.reason === 'QuotaExceeded' && result.quota_max !== undefined
      ? quotaHeaders({ quota_max: result.quota_max, remaining: 0, renews: result.until })
      : {};
  return { ...spentQuota, 'Retry-After': String(retryAfterSeconds(result.until, now)) };
}

/** What a refused check says, per reason. */
export function refusalMessage(reason: DenialReason): string {
  return MESSAGES[reason];
}

/**
 * The check's path in the normal form the key's path rules are tried on (contract §13); a path
 * that upstreams read in different ways is 400 before anything is spent.
 */
function withDecidedPath(input: CheckInput): CheckInput {
  if (input.path === undefined) return input;
  const decided = decidedPath(input.path.startsWith('/') ? input.path : `/${input.path}`);
  if (!decided.ok)
    throw new BadRequest(`path holds ${decided.reason}, which upstreams read in different ways`, [{ path: 'body.path', message: decided.reason }]);
  return { ...input, path: decided.path };
}

/**
 * POST /gw/sessions/check: the live quota and its rate headers when allowed; a 403 or 429
 * Refusal naming the reason (with Retry-After on a 429) otherwise.
 */
export async function checkOrRefuse(
  input: CheckInput,
): Promise<{ body: { allowed: true; quota_remaining: number; quota_renews: number }; headers: Record<string, string> }> {
  const now = nowSeconds();
  const result = await decide(withDecidedPath(input), now);
  const headers = rateHeadersOf(result, now);
  if (!result.allowed) throw new Refusal(DENIAL_STATUS[result.reason], MESSAGES[result.reason], { allowed: false, reason: result.reason }, headers);
  return { body: { allowed: true, quota_remaining: result.quota_remaining, quota_renews: result.quota_renews }, headers };
}
