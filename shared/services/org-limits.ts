/**
 * Per-organisation limits of dashboard requests (docs/reference/limits.md): so one organisation cannot use
 * up what the stage's shared throttles allow every organisation, each has its own budget per
 * class and fixed window. The stage throttles stay as the global ceiling.
 */
import { orgLimitWindow } from '../domain/org-limits';
import { TtlCache } from '../lib/ttl-cache';
import { TooManyRequests } from '../errors';
import { ORG_LIMIT_WINDOW_SECONDS, type OrgLimitClass } from '../limits';
import { logger } from '../observability/logger';
import { countBy, METRIC } from '../observability/metrics';
import { spendWindowUnit } from '../store/org-limits';
import { orgLimitMax } from './org-standing';

const WHAT: Record<OrgLimitClass, string> = {
  reads: 'dashboard reads',
  writes: 'dashboard writes',
  hookTest: 'webhook tests and redeliveries',
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

/** Spends one unit of the organisation's `cls` limit (its own figure, else the installation's), or 429 with the seconds until its window ends. */
export async function spendOrgLimit(orgId: string, cls: OrgLimitClass, nowMs = Date.now()): Promise<void> {
  const max = await orgLimitMax(orgId, cls);
  const window = orgLimitWindow(nowMs);
  const key = windowKey(orgId, cls, window.start);
  if (fullWindows.get(key, nowMs) !== true) {
    if (await spendWindowUnit(orgId, cls, window, max)) return;
    fullWindows.set(key, true, nowMs);
  }
  // The class is the metric's dimension; which organisation is the log line's (bounded dimensions).
  countBy(METRIC.orgLimitRefused, 'class', cls);
  logger.info('organisation limit refused', { org_id: orgId, class: cls, max });
  throw new TooManyRequests(
    `This organisation has made its ${max} ${WHAT[cls]} of this ${ORG_LIMIT_WINDOW_SECONDS}-second window; retry in ${window.retryAfter} s`,
    window.retryAfter,
  );
}
