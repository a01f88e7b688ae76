/**
 * What an organisation may do (contract §9, docs/reference/limits.md): its standing, whether it is
 * active and its own limits, which an installation admin sets; and its budgets of dashboard
 * requests per window, spent here.
 *
 * The standing: every dashboard request, every check of its keys, every gateway write and every
 * webhook routed for it depends on it, so a process keeps what it read for CACHE_SECONDS: a
 * suspension, a restoration or a change of limits takes effect within that bound (at once in the
 * process that made it).
 *
 * The budgets: so one organisation cannot use up what the stage's shared throttles allow every
 * organisation, each has its own budget per class and fixed window. The stage throttles stay as
 * the global ceiling.
 */
import { orgLimitWindow } from '../domain/org-limits';
import { TtlCache } from '../lib/ttl-cache';
import { Forbidden, TooManyRequests } from '../errors';
import { ORG_LIMIT_WINDOW_SECONDS, WEBHOOK_LIMITS, type OrgLimitClass } from '../limits';
import { config } from '../config';
import { logger } from '../observability/logger';
import { countBy, METRIC } from '../observability/metrics';
import { carryWindowUnit, spendWindowUnit } from '../store/org-limits';
import { loadOrgStanding, type OrgStanding } from '../store/organisations';
import type { OrgLimitOverrides } from '../schemas/organisations';

const standings = new TtlCache<OrgStanding>(() => config().cacheMs);

/** The organisation's standing, from this process's cache or one read of its item. */
export async function orgStandingOf(orgId: string): Promise<OrgStanding> {
  const cached = standings.get(orgId);
  if (cached) return cached;
  const standing = await loadOrgStanding(orgId);
  standings.set(orgId, standing);
  return standing;
}

/** This process reads the organisation's standing again on its next request. */
export function forgetOrgStanding(orgId: string): void {
  standings.delete(orgId);
}

/** A dashboard user of a suspended organisation is refused, with what to do about it. */
export async function assertOrgActive(orgId: string): Promise<void> {
  if (!(await orgStandingOf(orgId)).active) {
    throw new Forbidden('This organisation is suspended: its dashboard, keys and webhooks are off until the installation admin restores it');
  }
}

/** The member of `limits` that overrides each class of ORG_LIMITS. */
const OVERRIDE: Record<OrgLimitClass, keyof OrgLimitOverrides> = { reads: 'reads', writes: 'writes', hookTest: 'hook_tests', portal: 'portal' };

/** The organisation's units per window of `cls`: its own figure, else the installation's. */
async function orgLimitMax(orgId: string, cls: OrgLimitClass): Promise<number> {
  return (await orgStandingOf(orgId)).limits[OVERRIDE[cls]] ?? config().orgLimits[cls];
}

/** How many webhooks the organisation may hold: its own figure, else the installation's. */
export async function orgHooksMax(orgId: string): Promise<number> {
  return (await orgStandingOf(orgId)).limits.hooks ?? WEBHOOK_LIMITS.hooksPerOrg;
}

const WHAT: Record<OrgLimitClass, string> = {
  reads: 'dashboard reads',
  writes: 'dashboard writes',
  hookTest: 'webhook tests and redeliveries',
  portal: 'requests to its developer portal',
};

/**
 * Windows this process has seen full, by organisation, class and window start. A window's count
 * never goes down, so a full one refuses every later request until it ends: they are refused here
 * without a write, and a read the limit refuses is refused before it reads.
 */
const fullWindows = new TtlCache<true>(() => ORG_LIMIT_WINDOW_SECONDS * 1000);
const windowKey = (orgId: string, cls: OrgLimitClass, start: number) => `${orgId}\n${cls}\n${start}`;

/** Whether this process has seen the organisation's `cls` window of `nowMs` full. */
export function knownFull(orgId: string, cls: OrgLimitClass, nowMs = Date.now()): boolean {
  return fullWindows.get(windowKey(orgId, cls, orgLimitWindow(nowMs).start), nowMs) === true;
}

/** The 429 of a spent limit (counted, and logged with its organisation), with the seconds until its window ends. */
function limitReached(orgId: string, cls: OrgLimitClass, max: number, window: { retryAfter: number }): TooManyRequests {
  // The class is the metric's dimension; which organisation is the log line's (bounded dimensions).
  countBy(METRIC.orgLimitRefused, 'class', cls);
  logger.info('organisation limit refused', { org_id: orgId, class: cls, max });
  return new TooManyRequests(
    `This organisation has made its ${max} ${WHAT[cls]} of this ${ORG_LIMIT_WINDOW_SECONDS}-second window; retry in ${window.retryAfter} s`,
    window.retryAfter,
  );
}

/** Spends one unit of the organisation's `cls` limit (its own figure, else the installation's), or 429 with the seconds until its window ends. */
export async function spendOrgLimit(orgId: string, cls: OrgLimitClass, nowMs = Date.now()): Promise<void> {
  const max = await orgLimitMax(orgId, cls);
  const window = orgLimitWindow(nowMs);
  const key = windowKey(orgId, cls, window.start);
  if (fullWindows.get(key, nowMs) !== true) {
    if (await spendWindowUnit(orgId, cls, window, max)) return;
    fullWindows.set(key, true, nowMs);
  }
  throw limitReached(orgId, cls, max, window);
}

/** Spends the unit a dashboard write reserved if nothing carried it (the request wrote nothing, or failed). */
export { settleWriteUnit as settleOrgWrite } from '../store/db/write-unit';

/**
 * A dashboard write's unit of the `writes` limit, handed to the request's first write to carry in
 * its own transaction (store/db/write-unit.ts): no round trip of its own. 429 at once when this
 * process has seen the window full; spent at once outside a request's work.
 */
export async function reserveOrgWrite(orgId: string, nowMs = Date.now()): Promise<void> {
  const max = await orgLimitMax(orgId, 'writes');
  const window = orgLimitWindow(nowMs);
  const key = windowKey(orgId, 'writes', window.start);
  if (fullWindows.get(key, nowMs) === true) throw limitReached(orgId, 'writes', max, window);
  const refused = () => {
    fullWindows.set(key, true, nowMs);
    return limitReached(orgId, 'writes', max, window);
  };
  const spendAlone = () => spendOrgLimit(orgId, 'writes', nowMs);
  if (!carryWindowUnit({ orgId, cls: 'writes', window, max }, refused, spendAlone)) await spendAlone();
}
