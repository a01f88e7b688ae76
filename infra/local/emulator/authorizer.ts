/**
 * Lambda authorizers on HTTP API routes, as API Gateway runs them (docs/operating/emulator.md): a
 * REQUEST authorizer with payload 2.0 and simple responses. A request missing an identity source
 * value is 401 `{"message":"Unauthorized"}` without invoking the authorizer; `{isAuthorized:
 * false}` is 403 `{"message":"Forbidden"}`; an authorizer that fails or answers something else is
 * 500 `{"message":"Internal Server Error"}`; an allow hands its `context` to the integration as
 * `requestContext.authorizer.lambda`. With AuthorizerResultTtlInSeconds above 0 a decision is
 * reused for the same identity values until the TTL passes (off by default).
 */
import type { APIGatewayProxyEventV2, APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import type { Outcome } from './runtime';
import type { EmulatedAuthorizer } from './template';

type AuthorizerDecision = { allow: true; context: Record<string, unknown> } | { allow: false; status: 401 | 403 | 500; message: string };

const refuse = (status: 401 | 403 | 500): AuthorizerDecision => ({
  allow: false,
  status,
  message: status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Internal Server Error',
});

/** The identity values of a request, in the authorizer's order; undefined when one is missing or empty (API Gateway's 401). */
function identityValues(a: EmulatedAuthorizer, event: APIGatewayProxyEventV2): string[] | undefined {
  const values = a.identitySource.map((s) => (s.from === 'header' ? event.headers[s.name] : event.queryStringParameters?.[s.name]));
  return values.every((v) => typeof v === 'string' && v !== '') ? (values as string[]) : undefined;
}

/** The payload 2.0 authorizer event API Gateway sends for a request to a route. */
export function authorizerEvent(event: APIGatewayProxyEventV2, identitySource: string[], executeApiArn: string): APIGatewayRequestAuthorizerEventV2 {
  return {
    version: '2.0',
    type: 'REQUEST',
    routeArn: `${executeApiArn}/${event.requestContext.stage}/${event.requestContext.http.method}${event.rawPath}`,
    identitySource,
    routeKey: event.routeKey,
    rawPath: event.rawPath,
    rawQueryString: event.rawQueryString,
    cookies: event.cookies ?? [],
    headers: event.headers,
    queryStringParameters: event.queryStringParameters,
    requestContext: event.requestContext,
    pathParameters: event.pathParameters,
  };
}

/** A simple response: `{isAuthorized: boolean, context?: object}`; anything else is the authorizer's error. */
function toDecision(outcome: Outcome): AuthorizerDecision {
  if (!outcome.ok) return refuse(500);
  const r = outcome.result as { isAuthorized?: unknown; context?: unknown } | null;
  if (r === null || typeof r !== 'object' || typeof r.isAuthorized !== 'boolean') return refuse(500);
  if (r.context !== undefined && (r.context === null || typeof r.context !== 'object' || Array.isArray(r.context))) return refuse(500);
  return r.isAuthorized ? { allow: true, context: (r.context ?? {}) as Record<string, unknown> } : refuse(403);
}

interface AuthorizerRunner {
  decide(a: EmulatedAuthorizer, event: APIGatewayProxyEventV2): Promise<AuthorizerDecision>;
}

export function authorizerRunner(opts: {
  executeApiArn: string;
  invoke(functionId: string, event: unknown): Promise<Outcome>;
  now?: () => number;
}): AuthorizerRunner {
  const now = opts.now ?? Date.now;
  const cache = new Map<string, { decision: AuthorizerDecision; until: number }>();
  return {
    async decide(a, event) {
      const identity = identityValues(a, event);
      if (!identity) return refuse(401);
      const key = JSON.stringify([a.logicalId, identity]);
      const hit = a.ttlSeconds > 0 ? cache.get(key) : undefined;
      if (hit && hit.until > now()) return hit.decision;
      let decision: AuthorizerDecision;
      try {
        decision = toDecision(await opts.invoke(a.functionId, authorizerEvent(event, identity, opts.executeApiArn)));
      } catch {
        decision = refuse(500);
      }
      // API Gateway caches the authorizer's answers (allow and deny), not its failures.
      if (a.ttlSeconds > 0 && (decision.allow || decision.status === 403)) cache.set(key, { decision, until: now() + a.ttlSeconds * 1000 });
      return decision;
    },
  };
}
