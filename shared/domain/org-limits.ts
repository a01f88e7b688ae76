/** Per-organisation limits (docs/reference/limits.md): their settings and their fixed windows. Pure. */
import { ORG_LIMIT_MAX, ORG_LIMIT_WINDOW_SECONDS, ORG_LIMITS, type OrgLimitClass } from '../limits';

/**
 * Each class's units per window from the environment (ORG_READ_LIMIT, ORG_WRITE_LIMIT, ORG_HOOK_TEST_LIMIT; unset
 * or empty: the default), or an error naming the variable, so a typo never silently changes one.
 */
export function parseOrgLimits(env: Readonly<Record<string, string | undefined>>): Record<OrgLimitClass, number> {
  const out = {} as Record<OrgLimitClass, number>;
  for (const [cls, spec] of Object.entries(ORG_LIMITS) as Array<[OrgLimitClass, (typeof ORG_LIMITS)[OrgLimitClass]]>) {
    const raw = env[spec.env]?.trim();
    const n = raw === undefined || raw === '' ? spec.perWindow : /^\d{1,7}$/.test(raw) ? Number(raw) : NaN;
    if (!(n >= 1 && n <= ORG_LIMIT_MAX)) {
      throw new Error(`${spec.env}: "${raw}" is not a whole number of requests per ${ORG_LIMIT_WINDOW_SECONDS} s (1..${ORG_LIMIT_MAX})`);
    }
    out[cls] = n;
  }
  return out;
}

/** The fixed window `nowMs` falls in: its start and end in epoch seconds, and the whole seconds left (at least 1). */
export function orgLimitWindow(nowMs: number): { start: number; end: number; retryAfter: number } {
  const start = Math.floor(nowMs / 1000 / ORG_LIMIT_WINDOW_SECONDS) * ORG_LIMIT_WINDOW_SECONDS;
  const end = start + ORG_LIMIT_WINDOW_SECONDS;
  return { start, end, retryAfter: Math.max(1, Math.ceil(end - nowMs / 1000)) };
}
