/**
 * The HTTP API in front of the emulated functions: picks the template's route for a request by API
 * Gateway's precedence (shared/http/route-match.ts, the one matcher of every stage; else the
 * `$default` route), runs the route's Lambda authorizer (./authorizer.ts), sends the payload 2.0 event, and turns the function's answer into the HTTP
 * response by payload 2.0's rules. A function that
 * fails (INIT error, exception, crash, timeout, oversized answer) is API Gateway's 502
 * `{"message":"Internal Server Error"}`, never a hang; an event Lambda refuses to take (over 6 MB)
 * is API Gateway's 500.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { toApiGatewayEvent } from '../event';
import { routeMatcher } from '../../../shared/http/route-match';
import { authorizerRunner } from './authorizer';
import type { EmulatedRoute } from './template';
import type { Outcome } from './runtime';

/** HTTP API's request payload limit. */
const REQUEST_LIMIT = 10 * 1024 * 1024;
/** Lambda's payload limit for a synchronous invocation: a bigger event is refused before the function runs. */
const INVOKE_LIMIT = 6 * 1024 * 1024;

export interface HttpAnswer {
  statusCode: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

const message = (statusCode: number, text: string): HttpAnswer => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify({ message: text })),
});
const internalError = () => message(502, 'Internal Server Error');

/** Payload 2.0's response rules: a result without statusCode is a 200 JSON body; a malformed one is 502. */
export function toHttpAnswer(outcome: Outcome): HttpAnswer {
  if (!outcome.ok) return internalError();
  const r = outcome.result as Record<string, unknown> | string | number | boolean | null;
  if (r === null || typeof r !== 'object' || !('statusCode' in r)) {
    return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(typeof r === 'string' ? r : JSON.stringify(r)) };
  }
  const status = Number(r.statusCode);
  if (!Number.isInteger(status) || status < 100 || status > 599) return internalError();
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries((r.headers ?? {}) as Record<string, unknown>)) {
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return internalError();
    headers[k.toLowerCase()] = String(v);
  }
  if (Array.isArray(r.cookies) && r.cookies.length) headers['set-cookie'] = r.cookies.map(String);
  const text = typeof r.body === 'string' ? r.body : r.body === undefined || r.body === null ? '' : JSON.stringify(r.body);
  return { statusCode: status, headers, body: r.isBase64Encoded ? Buffer.from(text, 'base64') : Buffer.from(text) };
}

export interface GatewayOptions {
  routes: readonly EmulatedRoute[];
  /** The `$default` route's function, if the template has one. */
  defaultFunction?: string;
  invoke(functionId: string, event: unknown): Promise<Outcome>;
  /** What authorizer events' routeArn starts with (CloudStage.executeApiArn; default: us-east-1, the local account). */
  executeApiArn?: string;
  log?(line: string): void;
  /** Headers set on every request before it is matched, as CloudFront sets its origin headers (edge=on). */
  addHeaders?: Record<string, string>;
  /** Paths served as static files beside the API, as CloudFront sends /console/* to the console's bucket. */
  site?: { owns(pathname: string): boolean; serve(req: IncomingMessage, res: ServerResponse): void };
}

/** The request's body once it has all arrived; undefined past HTTP API's 10 MB (read to its end, kept no further). */
export function whenBodyRead(req: IncomingMessage, done: (body: Buffer | undefined) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (size <= REQUEST_LIMIT) chunks.push(c);
  });
  req.on('end', () => done(size > REQUEST_LIMIT ? undefined : Buffer.concat(chunks)));
}

/** With a Content-Length, as API Gateway answers (writeHead alone would chunk the answer). */
function write(res: ServerResponse, a: HttpAnswer, requestId: string): void {
  res.writeHead(a.statusCode, { ...a.headers, 'content-length': String(a.body.length), 'apigw-requestid': requestId });
  res.end(a.body);
}

export function createGateway(opts: GatewayOptions): Server {
  const routes = routeMatcher(opts.routes);
  const authorizers = authorizerRunner({ executeApiArn: opts.executeApiArn ?? 'arn:aws:execute-api:us-east-1:000000000000:local', invoke: opts.invoke });
  return createServer((req, res) => {
    if (opts.site?.owns(new URL(req.url ?? '/', 'http://local').pathname)) return opts.site.serve(req, res);
    whenBodyRead(req, async (raw) => {
      const requestId = randomUUID();
      const url = new URL(req.url ?? '/', 'http://local');
      const method = (req.method ?? 'GET').toUpperCase();
      if (!raw) {
        return write(
          res,
          { statusCode: 413, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"message":"Request Entity Too Large"}') },
          requestId,
        );
      }
      const hit = routes.match(method, url.pathname);
      const functionId = hit?.route.functionId ?? opts.defaultFunction;
      if (!functionId)
        return write(res, { statusCode: 404, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"message":"Not Found"}') }, requestId);
      const body = raw.length ? raw.toString('utf8') : undefined;
      // Like CloudFront, replacing any value the client sent under the same name.
      for (const [name, value] of Object.entries(opts.addHeaders ?? {})) req.headers[name.toLowerCase()] = value;
      const event = toApiGatewayEvent(req, url, body, { routeKey: hit?.route.routeKey ?? '$default', pathParameters: hit?.params ?? {} });
      event.requestContext.requestId = requestId;
      const authorizer = hit?.route.authorizer;
      if (authorizer) {
        const decision = await authorizers.decide(authorizer, event);
        if (!decision.allow) return write(res, message(decision.status, decision.message), requestId);
        (event.requestContext as { authorizer?: unknown }).authorizer = { lambda: decision.context };
      }
      const eventBytes = Buffer.byteLength(JSON.stringify(event));
      if (eventBytes > INVOKE_LIMIT) {
        opts.log?.(`REFUSED ${functionId} RequestId: ${requestId} the event is ${eventBytes} bytes; Lambda takes at most ${INVOKE_LIMIT}`);
        return write(res, message(500, 'Internal Server Error'), requestId);
      }
      try {
        write(res, toHttpAnswer(await opts.invoke(functionId, event)), requestId);
      } catch {
        write(res, internalError(), requestId);
      }
    });
  });
}
