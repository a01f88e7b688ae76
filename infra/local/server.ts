/**
 * The local stage's HTTP server: match a route of the table by API Gateway's precedence, build the
 * API Gateway event, invoke the same handler the cloud runs, write its result. Never imported by
 * functions/.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { PayloadTooLarge } from '../../shared/errors';
import { fallbackResponse, matchRoute } from '../../shared/http/fallback';
import { errorResult, finalise } from '../../shared/http/respond';
import { groupOfPath } from '../../shared/route-def';
import { LIMITS } from '../../shared/limits';
import { runAs } from '../../shared/request-context';
import { consoleOnDemand, isConsolePath } from '../../console/host/static-files';
import { toApiGatewayEvent } from './event';
import { inRouteScope } from './route-scope';

type Handler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<{ statusCode: number; headers?: Record<string, string>; body?: string; isBase64Encoded?: boolean }>;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const loaded = new Map<string, Promise<Handler>>();

function loadHandler(entry: string): Promise<Handler> {
  let p = loaded.get(entry);
  if (!p) {
    p = import(resolve(ROOT, entry)).then((m: { handler: Handler }) => m.handler);
    loaded.set(entry, p);
  }
  return p;
}

function lambdaContext(requestId: string): Context {
  const deadline = Date.now() + 29_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'local',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:local',
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: 'local',
    logStreamName: 'local',
    getRemainingTimeInMillis: () => deadline - Date.now(),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/**
 * Answers with a Content-Length, as API Gateway does. (writeHead before end would chunk the
 * answer, and nginx's auth_request keeps its connection only to an answer whose end it knows
 * without reading a body: every check would open a new connection.)
 */
function send(res: ServerResponse, r: { statusCode: number; headers?: Record<string, string>; body?: string; isBase64Encoded?: boolean }) {
  // A body of bytes (a compressed document) comes as base64, which API Gateway decodes.
  const body = r.isBase64Encoded ? Buffer.from(r.body ?? '', 'base64') : (r.body ?? '');
  res.writeHead(r.statusCode, { ...r.headers, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

export function createLocalServer(): Server {
  // The web console's files (docs/using/console.md), on the service's origin as CloudFront serves them; built on the first request when stale.
  const site = consoleOnDemand({ log: (line) => console.log(line) });
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    if (isConsolePath(url.pathname)) return site.serve(req, res);
    const method = (req.method ?? 'GET').toUpperCase();
    // One match per request, by API Gateway's precedence; its parameters are kept for the event.
    const hit = matchRoute(method, url.pathname);
    const route = hit?.route;
    const pathParameters = hit?.params ?? {};
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > LIMITS.bodyBytes) tooLarge = true;
      else chunks.push(c);
    });
    req.on('end', async () => {
      try {
        // What API Gateway's $default route answers in the cloud (functions/system/fallback.ts).
        if (!route) return send(res, fallbackResponse(method, url.pathname));
        // The body was not kept past 5 MB, so the handler cannot refuse it: the same 413 here.
        if (tooLarge) {
          const id = randomUUID();
          return send(res, finalise(errorResult(route.group, new PayloadTooLarge(), id), route.group, id));
        }
        const body = chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined;
        const event = toApiGatewayEvent(req, url, body, {
          routeKey: `${route.method} ${route.path}`,
          pathParameters,
        });
        const handler = await loadHandler(route.entry);
        send(res, await inRouteScope(route.name, () => handler(event, lambdaContext(event.requestContext.requestId))));
      } catch (e) {
        // A handler that could not even be loaded: logged under the answer's request id, and answered as the wrapper would.
        const group = groupOfPath(url.pathname);
        const id = randomUUID();
        const work = { requestId: id, route: route ? `${route.method} ${route.path}` : 'fallback' };
        send(
          res,
          runAs(work, () => finalise(errorResult(group, e, id), group, id)),
        );
      }
    });
  });
}
