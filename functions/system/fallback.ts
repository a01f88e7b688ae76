import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { fallbackResponse } from '../../shared/http/fallback';
import { edgeRefusal } from '../../shared/http/origin-verify';
import { groupOfPath } from '../../shared/route-def';

/** The HTTP API's $default route: a path or method no route takes, answered in the envelope of the path's prefix (shared/http/fallback.ts). */
export const handler = async (event: APIGatewayProxyEventV2) => {
  const requestId = event.requestContext.requestId || undefined;
  return edgeRefusal(event.headers, groupOfPath(event.rawPath), requestId) ?? fallbackResponse(event.requestContext.http.method, event.rawPath, requestId);
};
