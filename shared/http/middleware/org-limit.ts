/**
 * Middleware: a dashboard write spends one unit of its organisation's limit for the route's class
 * (README "Limits"), or is refused 429 with Retry-After. It runs after auth, the permission check
 * and validation, so neither a request without a valid credential, nor one its user may not make,
 * nor one refused for its shape spends a tenant's budget.
 */
import { orgLimitOf, type RouteDef } from '../../route-def';
import { spendOrgLimit } from '../../services/org-limits';
import type { HttpMiddleware } from './state';

export const orgLimit = (route: RouteDef): HttpMiddleware => {
  const limit = orgLimitOf(route);
  return {
    name: 'org-limit',
    before: async (request) => {
      const principal = request.internal.principal!;
      if (limit && principal.group === 'dashboard') await spendOrgLimit(principal.orgId, limit);
    },
  };
};
