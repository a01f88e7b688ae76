/** The data-plane check. Part of the route table (shared/routes.ts). */
import * as z from 'zod';
import { LIMITS } from '../limits';
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import { sessionCheckResultSchema, sessionCheckSchema } from '../schemas/keys';

export const sessionsRoutes = routeGroup('sessions', {
  sessionsCheck: route({
    method: 'POST',
    path: '/gw/sessions/check',
    group: 'gateway',
    access: 'write',
    tableActions: ['GetItem', 'BatchGetItem', 'UpdateItem', 'PutItem'],
    tableEntities: ['event', 'key', 'org', 'policy'],
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
    successHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
    refusalHeaders: true,
    body: sessionCheckSchema,
    result: sessionCheckResultSchema,
    doc: { models: { 403: 'CheckRefusal', 429: 'CheckRefusal' } },
  }),
  sessionsExtAuthz: route({
    method: 'ANY',
    path: '/gw/ext-authz/{proxy+}',
    group: 'gateway',
    access: 'write',
    tableActions: ['GetItem', 'BatchGetItem', 'UpdateItem', 'PutItem'],
    tableEntities: ['event', 'key', 'listen_path', 'org'],
    summary: "External authorization for nginx auth_request and Envoy ext_authz: the check's decision on a forwarded request",
    description:
      'What nginx `auth_request` and Envoy `ext_authz` (HTTP service) call for each request (README "Put an API behind it"). ' +
      "The original request is X-Original-Method, X-Original-URI and X-Original-Host when sent (nginx), else this request's " +
      'method, its path after /gw/ext-authz and its Host (Envoy, path_prefix /gw/ext-authz). The API is X-Gw-Api-Id when sent, ' +
      'else the one whose listen path serves the host and path (a claim on the host before one on every host, then the longest ' +
      'listen path). The key is in the header X-Gw-Key-Header names (default Authorization, with or without Bearer), else in the ' +
      "query parameter X-Gw-Key-Param names. The decision is exactly POST /gw/sessions/check's, with the key's allowed_urls " +
      'tried on the path as sent and after the listen path: one unit of quota spent, the same events.',
    success: 'Allowed, nothing in the body: the headers name the API, the key hash, the organisation and the quota left, for the gateway to pass upstream',
    statuses: {
      401:
        'Refused: no key where the gateway said to look (reason NoKey), or an unknown key (UnknownKey), with WWW-Authenticate; ' +
        'or no valid X-Gw-Authorization (the group envelope)',
      403: 'Refused: reason KeyInactive, KeyExpired or AccessDenied (the API is not granted, or allowed_urls refuses the path or method)',
      404: 'Refused: no API listens on this host and path (reason UnknownApi)',
      429: 'Refused: reason QuotaExceeded or RateLimitExceeded; Retry-After says when to try again',
    },
    successHeaders: ['X-Gw-Api-Id', 'X-Gw-Key-Hash', 'X-Gw-Org-Id', 'X-Gw-Quota-Remaining', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
    refusalHeaders: true,
    params: z.object({ proxy: z.string().max(LIMITS.forwardedPath) }),
    result: z.null(),
    noContent: true,
    doc: {
      params: {
        proxy:
          `The forwarded request's path after /gw/ext-authz, decoded: at most ${LIMITS.forwardedPath} characters, and the request line ` +
          'with its headers within what the stage reads: 10,240 bytes behind API Gateway, 16 KB on the local stage (431 past it)',
      },
      models: { 401: 'CheckRefusal', 403: 'CheckRefusal', 404: 'CheckRefusal', 429: 'CheckRefusal' },
      freeQuery: "The forwarded request's query (Envoy), any parameters: the key's, when X-Gw-Key-Param names one",
    },
  }),
}) satisfies Record<string, RouteDef>;
