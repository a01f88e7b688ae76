/**
 * Per-organisation limits of dashboard requests (README "Limits"): so one organisation cannot use
 * up what the stage's shared throttles allow every organisation, each has its own budget per
 * class and fixed window. The stage throttles stay as the global ceiling.
 */
import { config } from '../config';
import { orgLimitWindow } from '../domain/org-limits';
import { TooManyRequests } from '../errors';
import { ORG_LIMIT_WINDOW_SECONDS, type OrgLimitClass } from '../limits';
import { logger } from '../observability/logger';
import { countBy, METRIC } from '../observability/metrics';
import { spendWindowUnit } from '../store/org-limits';

const WHAT: Record<OrgLimitClass, string> = {
  writes: 'dashboard writes',
  hookTest: 'webhook tests and redeliveries',
};

/** Spends one unit of the organisation's `cls` limit, or 429 with the seconds until its window ends. */
export async function spendOrgLimit(orgId: string, cls: OrgLimitClass, nowMs = Date.now()): Promise<void> {
  const max = config().orgLimits[cls];
  const window = orgLimitWindow(nowMs);
  if (await spendWindowUnit(orgId, cls, window, max)) return;
  // The class is the metric's dimension; which organisation is the log line's (bounded dimensions).
  countBy(METRIC.orgLimitRefused, 'class', cls);
  logger.info('organisation limit refused', { org_id: orgId, class: cls, max });
  throw new TooManyRequests(
    `This organisation has made its ${max} ${WHAT[cls]} of this ${ORG_LIMIT_WINDOW_SECONDS}-second window; retry in ${window.retryAfter} s`,
    window.retryAfter,
  );
}
