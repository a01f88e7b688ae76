import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { fallbackResponse } from '../../shared/http/fallback';

/** The HTTP API's $default route: 404/405 in the envelope of the path's prefix. */
export const handler = async (event: APIGatewayProxyEventV2) =>
  fallbackResponse(event.requestContext.http.method, event.rawPath, event.requestContext.requestId || undefined);
