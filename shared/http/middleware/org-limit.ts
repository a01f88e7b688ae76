/**
 * Middleware: a dashboard request spends one unit of its organisation's limit for the route's
 * class (docs/reference/limits.md), or is refused 429 with Retry-After. It runs after auth, the permission
 * check and validation, so neither a request without a valid credential, nor one its user may not
 * make, nor one refused for its shape spends a tenant's budget.
 *
 * A dashboard write's unit rides on its first write, in the same transaction (no round trip of its
 * own; shared/store/db/write-unit.ts): refused, nothing is written and the answer is the 429. A
 * write that wrote nothing, or failed before its unit was spent, spends it on its own after. The
 * webhook tests spend theirs before they run. A read spends it while it reads (no round trip added
 * to its answer): the answer waits for both, and a refused unit turns it into the 429, whatever the
 * read answered. The unit is the same conditional ADD, so exactly as many reads pass per window as
 * the limit says; once this process has seen the window full, a read is refused before it reads.
 */
import { TooManyRequests } from '../../errors';
import { orgLimitOf, type RouteSpec } from '../../route-def';
import { knownFull, reserveOrgWrite, settleOrgWrite, spendOrgLimit } from '../../services/org-limits';
import { errorResult } from '../respond';
import { requestIdOf, type HttpMiddleware } from './state';

export const orgLimit = (route: RouteSpec): HttpMiddleware => {
  const limit = orgLimitOf(route);
  const alongside = route.access === 'read';
  // A dashboard write's unit rides on its first write (shared/store/db/write-unit.ts).
  const carried = limit === 'writes';
  /** The unit a read is spending: its refusal or failure, once settled (never a rejected promise). */
  const spending = new WeakMap<object, Promise<Error | undefined>>();
  const settled = async (request: { internal: object }) => {
    const unit = spending.get(request.internal);
    spending.delete(request.internal);
    return unit && (await unit);
  };
  return {
    name: 'org-limit',
    before: async (request) => {
      const principal = request.internal.principal!;
      if (!limit) return;
      // A portal's route spends the limit of the organisation its path names, whoever calls.
      const portalOrg = (request.internal.parts?.params as { orgID?: string } | undefined)?.orgID;
      if (limit === 'portal' && portalOrg) return spendOrgLimit(portalOrg, limit);
      if (principal.group !== 'dashboard') return;
      if (carried) return reserveOrgWrite(principal.orgId);
      if (!alongside || knownFull(principal.orgId, limit)) return spendOrgLimit(principal.orgId, limit);
      spending.set(
        request.internal,
        spendOrgLimit(principal.orgId, limit).then(
          () => undefined,
          (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
        ),
      );
    },
    after: async (request) => {
      // A write that wrote nothing spends its unit now; refused, the answer is the 429.
      if (carried) await settleOrgWrite();
      const refused = await settled(request);
      if (refused) throw refused;
    },
    onError: async (request) => {
      // A write that failed before its unit was spent spends it still, as every write does; the failure stays the answer.
      if (carried) await settleOrgWrite().catch(() => undefined);
      // The read failed (404...) while its unit was refused: the refusal is the answer.
      const refused = await settled(request);
      if (refused instanceof TooManyRequests) request.response = errorResult(route.group, refused, requestIdOf(request.event));
    },
  };
};
