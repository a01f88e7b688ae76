import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { fallbackResponse } from '../../shared/http/fallback';

/** The HTTP API's $default route: 404/405 in the envelope of the path's prefix. */
export const handler = async (event: APIGatewayProxyEventV2) => {
  const res = fallbackResponse(event.requestContext.http.method, event.rawPath);
  return { ...res, headers: { ...res.headers, 'X-Request-Id': event.requestContext.requestId || randomUUID() } };
};
