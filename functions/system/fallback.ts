import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { fallbackResponse } from '../../shared/http/fallback';
import { edgeRefusal } from '../../shared/http/origin-verify';
import { groupOfPath } from '../../shared/route-def';

/** The HTTP API's $default route: 404/405 in the envelope of the path's prefix (403 when not through the edge). */
export const handler = async (event: APIGatewayProxyEventV2) => {
  const requestId = event.requestContext.requestId || undefined;
  return edgeRefusal(event.headers, groupOfPath(event.rawPath), requestId) ?? fallbackResponse(event.requestContext.http.method, event.rawPath, requestId);
};
