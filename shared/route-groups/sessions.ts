/** The data-plane check. Part of the route table (shared/routes.ts). */
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import { sessionCheckResultSchema, sessionCheckSchema } from '../schemas/keys';

export const sessionsRoutes = routeGroup('sessions', {
  sessionsCheck: route({
    method: 'POST', path: '/gw/sessions/check', group: 'gateway', access: 'write', tableActions: ['GetItem', 'BatchGetItem', 'UpdateItem', 'PutItem'],
    summary: "Data-plane check (contract §10): spends one unit of the key's and its organisation's quota, or refuses with a reason",
    description:
      "What a gateway asks for each request (contract §10). One unit of the key's quota (and of its organisation's) is spent " +
      'atomically; a window renews lazily, exactly once, after quota_renews. Under any concurrency exactly quota_max requests are ' +
      'allowed per window. A refusal is an answer, not an error: 403 or 429 with the reason.',
    success: 'Allowed: one unit was spent; quota_remaining and quota_renews of the key (-1: unlimited)',
    statuses: {
      403: 'Refused: reason UnknownKey, KeyInactive, KeyExpired or AccessDenied',
      429: 'Refused: reason QuotaExceeded or RateLimitExceeded (rate requests per per seconds, fixed window)',
    },
    body: sessionCheckSchema, result: sessionCheckResultSchema,
    doc: { models: { 403: 'CheckRefusal', 429: 'CheckRefusal' } },
  }),
}) satisfies Record<string, RouteDef>;
