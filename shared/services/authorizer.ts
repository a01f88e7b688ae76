/**
 * The Lambda authorizer of API Gateway HTTP APIs (infra/constructs/gateway-authorizer.ts): a
 * REQUEST authorizer, payload 2.0, simple responses. The decision is the check's own
 * (session-check.ts: decide), in process against this stack's table: one unit of quota spent,
 * the same events. API Gateway answers a denial 403 (a missing key 401, before the authorizer
 * runs); the reason travels in the context only when allowed, as API Gateway drops a denial's.
 */
import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { config } from '../config';
import { decidedPath } from '../domain/request-path';
import { decide } from './session-check';

export type AuthorizerContext = { api_id: string; key_hash: string; org_id: string; quota_remaining: number; quota_renews: number };

export async function authorize(
  event: APIGatewayRequestAuthorizerEventV2,
): Promise<APIGatewaySimpleAuthorizerWithContextResult<AuthorizerContext | Record<string, never>>> {
  const { apiId, keyHeader } = config().authorizer;
  const raw = event.headers?.[keyHeader] ?? event.identitySource?.[0];
  const key = raw
    ?.trim()
    .replace(/^Bearer\s+/i, '')
    .trim();
  // API Gateway hands the path over percent-decoded; one that upstreams read in different ways is
  // refused (contract §13), as a 403: a Lambda authorizer can only allow or deny.
  const path = decidedPath(event.rawPath ?? '/', { decoded: true });
  if (!apiId || !key || !path.ok) return { isAuthorized: false, context: {} };
  const result = await decide({ key, api_id: apiId, path: path.path, method: event.requestContext?.http?.method });
  if (!result.allowed) return { isAuthorized: false, context: {} };
  return {
    isAuthorized: true,
    context: { api_id: apiId, key_hash: result.key_hash, org_id: result.org_id, quota_remaining: result.quota_remaining, quota_renews: result.quota_renews },
  };
}
