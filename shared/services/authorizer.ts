/**
 * The Lambda authorizer of API Gateway HTTP APIs (infra/constructs/gateway-authorizer.ts): a
 * REQUEST authorizer, payload 2.0, simple responses. The decision is the check's own
 * (session-check.ts: decide), in process against this stack's table: one unit of quota spent,
 * the same events. API Gateway answers a denial 403 (a missing key 401, before the authorizer
 * runs); the reason travels in the context only when allowed, as API Gateway drops a denial's.
 *
 * Its API is the one it was deployed for (AUTHORIZER_API_ID), or on the data-plane API
 * (docs/operating/data-plane.md), where one authorizer guards every keyed route, the API whose
 * listen path the matched route is: the reconciler wrote that route key, so the decision still
 * depends on configuration, never on what the client sends.
 */
import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { config } from '../config';
import { pathUnder } from '../domain/forwarded-request';
import { decidedPath } from '../domain/request-path';
import { TtlCache } from '../lib/ttl-cache';
import { loadServingClaim } from '../store/listen-claims';
import { decide } from './session-check';

export type AuthorizerContext = { api_id: string; key_hash: string; org_id: string; quota_remaining: number; quota_renews: number };

/** The listen path of a data-plane route key (`ANY /books`, `ANY /books/{proxy+}`, `ANY /{proxy+}`). */
const ROUTE_KEY = /^ANY (\/[^{}]*?)(?:\/\{proxy\+\})?$/;

/** Route key to API, for CACHE_SECONDS: a moved or deleted API's route is gone from the data plane soon after. */
const routeApis = new TtlCache<string>(() => config().cacheMs);

/** The API that holds the listen path of a data-plane route on the shared hosts, if any. */
async function apiOfRoute(routeKey: string | undefined): Promise<{ apiId: string; listenPath: string } | undefined> {
  const m = ROUTE_KEY.exec(routeKey ?? '');
  if (!m) return undefined;
  const listenPath = m[1] || '/';
  const hit = routeApis.get(listenPath);
  if (hit) return { apiId: hit, listenPath };
  const best = await loadServingClaim('', [listenPath]);
  if (!best) return undefined;
  routeApis.set(listenPath, best.api_id);
  return { apiId: best.api_id, listenPath };
}

export async function authorize(
  event: APIGatewayRequestAuthorizerEventV2,
): Promise<APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext | Record<string, never>>> {
  const { apiId: fixed, keyHeader } = config().authorizer;
  const routed = fixed ? undefined : await apiOfRoute(event.routeKey);
  const apiId = fixed ?? routed?.apiId;
  const raw = event.headers?.[keyHeader] ?? event.identitySource?.[0];
  const key = raw
    ?.trim()
    .replace(/^Bearer\s+/i, '')
    .trim();
  // API Gateway hands the path over percent-decoded; one that upstreams read in different ways is
  // refused (contract §13), as a 403: a Lambda authorizer can only allow or deny.
  const path = decidedPath(event.rawPath ?? '/', { decoded: true });
  if (!apiId || !key || !path.ok) return { isAuthorized: false, context: {} };
  const apiPath = routed ? pathUnder(path.path, routed.listenPath) : undefined;
  const result = await decide({ key, api_id: apiId, path: path.path, api_path: apiPath, method: event.requestContext?.http?.method });
  if (!result.allowed) return { isAuthorized: false, context: {} };
  return {
    isAuthorized: true,
    context: { api_id: apiId, key_hash: result.key_hash, org_id: result.org_id, quota_remaining: result.quota_remaining, quota_renews: result.quota_renews },
  };
}
