import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { randomUUID } from 'node:crypto';

export interface RequestParts {
  method: string;
  url: URL;
  /** Header names in any case; repeated headers already joined with commas. */
  headers: Record<string, string>;
  body: string | undefined;
  sourceIp: string;
  protocol: string;
}

/** The API Gateway HTTP API (payload 2.0) event for one request matched to a route. */
export function apiGatewayEvent(r: RequestParts, match: { routeKey: string; pathParameters: Record<string, string> }): APIGatewayProxyEventV2 {
  const headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const query: Record<string, string> = {};
  for (const [k, v] of r.url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
  const now = new Date();
  const method = r.method.toUpperCase();
  return {
    version: '2.0',
    routeKey: match.routeKey,
    rawPath: r.url.pathname,
    rawQueryString: r.url.search.replace(/^\?/, ''),
    cookies: headers.cookie ? headers.cookie.split(/;\s*/) : undefined,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(match.pathParameters).length ? match.pathParameters : undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0]!,
      http: {
        method,
        path: r.url.pathname,
        protocol: r.protocol,
        sourceIp: r.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: match.routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: r.body,
    isBase64Encoded: false,
  };
}

/** Turns a node:http request into the API Gateway HTTP API (payload 2.0) event the cloud sends. */
export function toApiGatewayEvent(
  req: IncomingMessage,
  url: URL,
  body: string | undefined,
  match: { routeKey: string; pathParameters: Record<string, string> },
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  return apiGatewayEvent(
    { method: req.method ?? 'GET', url, headers, body, sourceIp: req.socket.remoteAddress ?? '127.0.0.1', protocol: `HTTP/${req.httpVersion}` },
    match,
  );
}
