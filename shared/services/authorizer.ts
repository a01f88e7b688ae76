/**
 * The Lambda authorizer of API Gateway HTTP APIs (infra/constructs/gateway-authorizer.ts): a
 * REQUEST authorizer, payload 2.0, simple responses. The decision is the check's own
 * (session-check.ts: decide), in process against this stack's table: one unit of quota spent,
 * the same events. API Gateway answers a denial 403 (a missing key 401, before the authorizer
 * runs); the reason travels in the context only when allowed, as API Gateway drops a denial's.
 *
 * Its API is the one it was deployed for (AUTHORIZER_API_ID), or on the data plane
 * (docs/operating/data-plane.md), where one authorizer function guards every keyed route, the API
 * whose listen path the matched route is, on the host that data-plane API serves: the shared hosts
 * on the data-plane API (DATA_PLANE_API_ID), an owned domain on its per-domain API, which is
 * reached only through that domain's API mapping (its execute-api endpoint is off). The reconciler
 * wrote the route key and the mapping, and API Gateway sets the API id and domain name of the
 * request's context, so the decision depends on configuration, never on what the client sends.
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

/** Host and route key to API, for CACHE_SECONDS: a moved or deleted API's route is gone from the data plane soon after. */
const routeApis = new TtlCache<string>(() => config().cacheMs);

/** The host a data-plane API serves: the shared hosts on the data-plane API, else the domain its mapping is for. */
function hostOf(event: APIGatewayRequestAuthorizerEventV2): string {
  const shared = config().dataPlane.apiId;
  return !shared || event.requestContext?.apiId === shared ? '' : (event.requestContext?.domainName ?? '').toLowerCase();
}

/** The API that holds the listen path of a data-plane route on its host, if any. */
async function apiOfRoute(event: APIGatewayRequestAuthorizerEventV2): Promise<{ apiId: string; listenPath: string } | undefined> {
  const m = ROUTE_KEY.exec(event.routeKey ?? '');
  if (!m) return undefined;
  const listenPath = m[1] || '/';
  const host = hostOf(event);
  const cacheKey = `${host} ${listenPath}`;
  const hit = routeApis.get(cacheKey);
  if (hit) return { apiId: hit, listenPath };
  const best = await loadServingClaim(host, [listenPath]);
  if (!best) return undefined;
  routeApis.set(cacheKey, best.api_id);
  return { apiId: best.api_id, listenPath };
}

export async function authorize(
  event: APIGatewayRequestAuthorizerEventV2,
): Promise<APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext | Record<string, never>>> {
  const { apiId: fixed, keyHeader } = config().authorizer;
  const routed = fixed ? undefined : await apiOfRoute(event);
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
