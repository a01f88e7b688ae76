/** The data-plane check. Part of the route table (shared/routes.ts). */
import * as z from 'zod';
import { LIMITS } from '../limits';
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import { sessionCheckResultSchema, sessionCheckSchema } from '../schemas/keys';

export const sessionsCheck = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/gw/sessions/check',
    group: 'gateway',
    access: 'write',
    tableActions: ['GetItem', 'BatchGetItem', 'UpdateItem', 'PutItem'],
    tableEntities: ['event', 'key', 'org', 'policy', 'usage_refusals'],
    summary: "Data-plane check (contract §10): spends one unit of the key's and its organisation's quota, or refuses with a reason",
    description:
      "What a gateway asks for each request (contract §10). One unit of the key's quota (and of its organisation's) is spent " +
      'atomically; a window renews lazily, exactly once, after quota_renews. Under any concurrency exactly quota_max requests are ' +
      'allowed per window. A refusal is an answer, not an error: 403 or 429 with the reason.',
    success: 'Allowed: one unit was spent; quota_remaining and quota_renews of the key (-1: unlimited)',
    statuses: {
      400: 'path holds an encoded / or \\, a \\, a ; parameter, an encoded NUL or a stray %, which upstreams read in different ways (contract §13)',
      403: 'Refused: reason UnknownKey, KeyInactive, KeyExpired, OrgSuspended (the organisation is suspended) or AccessDenied',
      429: 'Refused: reason QuotaExceeded or RateLimitExceeded (rate requests per per seconds, fixed window)',
    },
    successHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
    refusalHeaders: true,
    body: sessionCheckSchema,
    result: sessionCheckResultSchema,
    doc: { models: { 403: 'CheckRefusal', 429: 'CheckRefusal' } },
  }))();

export const sessionsExtAuthz = /* @__PURE__ */ (() =>
  route({
    method: 'ANY',
    path: '/gw/ext-authz/{proxy+}',
    group: 'gateway',
    access: 'write',
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'UpdateItem', 'PutItem'],
    tableEntities: ['api', 'api_part', 'domain_grant', 'event', 'key', 'listen_path', 'org', 'usage_refusals'],
    summary: "External authorization for nginx auth_request and Envoy ext_authz: the check's decision on a forwarded request",
    description:
      'What nginx `auth_request` and Envoy `ext_authz` (HTTP service) call for each request (docs/using/serving-apis.md). ' +
      "The original request is X-Original-Method, X-Original-URI and X-Original-Host when sent (nginx), else this request's " +
      'method, its path after /gw/ext-authz and its Host (Envoy, path_prefix /gw/ext-authz). These and X-Gw-Api-Id, X-Gw-Key-Header ' +
      "and X-Gw-Key-Param are routing hints, trusted as the gateway's configuration sets them: it must pass no client copy (contract §13). " +
      'The path is decided in normal form (RFC 3986 §6.2.2, dot segments removed, repeated slashes merged); a path upstreams read in ' +
      'different ways is 400. The API is X-Gw-Api-Id when sent, else the one whose listen claim serves the host and path (contract ' +
      '§13: on a host granted to an organisation only its APIs, its claims on the host first; the longest listen path). The key is in ' +
      'the header X-Gw-Key-Header names (default Authorization, with or without Bearer), else in the query parameter X-Gw-Key-Param ' +
      "names. The decision is exactly POST /gw/sessions/check's, with the key's allowed_urls tried on the decided path and on it after " +
      'the listen path: one unit of quota spent, the same events. A gateway that pins the API may name its listen path ' +
      '(X-Gw-Listen-Path): a decided path outside it is 404, and the path after it is answered in X-Gw-Api-Path; and may route it ' +
      'without a key (X-Gw-Keyless: 1): if the API is keyless and active the answer is the paths alone, nothing spent (gwctl gateway ' +
      'nginx renders both).',
    success:
      'Allowed, nothing in the body: the headers name the API, the key hash, the organisation and the quota left, for the gateway to ' +
      'pass upstream, and the decided path to send upstream (X-Gw-Path)',
    statuses: {
      400:
        'Refused before any API is chosen: the path holds an encoded / or \\, a \\, a ; parameter, an encoded NUL or a stray % (reason ' +
        'AmbiguousPath); or the forwarded path is longer than the route takes (the group envelope, naming params.proxy)',
      401:
        'Refused: no key where the gateway said to look (reason NoKey), or an unknown key (UnknownKey), with WWW-Authenticate; ' +
        'or no valid X-Gw-Authorization (the group envelope)',
      403: 'Refused: reason KeyInactive, KeyExpired, OrgSuspended or AccessDenied (the API is not granted, or allowed_urls refuses the path or method)',
      404: 'Refused: no API listens on this host and path, or the decided path is outside the listen path the gateway named (reason UnknownApi)',
      429: 'Refused: reason QuotaExceeded or RateLimitExceeded; Retry-After says when to try again',
    },
    successHeaders: [
      'X-Gw-Api-Id',
      'X-Gw-Path',
      'X-Gw-Key-Hash',
      'X-Gw-Org-Id',
      'X-Gw-Quota-Remaining',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
    ],
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
      models: { 400: 'CheckRefusal', 401: 'CheckRefusal', 403: 'CheckRefusal', 404: 'CheckRefusal', 429: 'CheckRefusal' },
      freeQuery: "The forwarded request's query (Envoy), any parameters: the key's, when X-Gw-Key-Param names one",
    },
  }))();

export const sessionsRoutes = /* @__PURE__ */ (() =>
  routeGroup('sessions', {
    sessionsCheck,
    sessionsExtAuthz,
  }))() satisfies Record<string, RouteDef>;
