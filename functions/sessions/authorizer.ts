import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { authorize } from '../../shared/services/authorizer';

/**
 * The Lambda authorizer users attach to their own HTTP API routes (infra/constructs/gateway-authorizer.ts):
 * not a route of the table; API Gateway calls it before each request of the routes it guards.
 */
export const handler = async (event: APIGatewayRequestAuthorizerEventV2) => authorize(event);
