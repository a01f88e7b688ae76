/**
 * The HTTP API in front of the emulated functions: picks the template's route for a request as API
 * Gateway does (the most specific path, then the `$default` route), sends the payload 2.0 event,
 * and turns the function's answer into the HTTP response by payload 2.0's rules. A function that
 * fails (INIT error, exception, crash, timeout, oversized answer) is API Gateway's 502
 * `{"message":"Internal Server Error"}`, never a hang; an event Lambda refuses to take (over 6 MB)
 * is API Gateway's 500.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { toApiGatewayEvent } from '../event';
import type { EmulatedRoute } from './template';
import type { Outcome } from './runtime';

/** HTTP API's request payload limit. */
const REQUEST_LIMIT = 10 * 1024 * 1024;
/** Lambda's payload limit for a synchronous invocation: a bigger event is refused before the function runs. */
const INVOKE_LIMIT = 6 * 1024 * 1024;

type Segment = { literal: string } | { param: string; greedy: boolean };
export interface CompiledRoute extends EmulatedRoute {
  segments: Segment[];
}

export function compileRoute(r: EmulatedRoute): CompiledRoute {
  const segments = r.path.split('/').slice(1).map((s): Segment => {
    const m = /^\{([^}+]+)(\+?)\}$/.exec(s);
    return m ? { param: m[1]!, greedy: m[2] === '+' } : { literal: s };
  });
  return { ...r, segments };
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The route's path parameters for `path`, or undefined when it does not match. */
function matchRoute(r: CompiledRoute, parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < r.segments.length; i++) {
    const seg = r.segments[i]!;
    if ('literal' in seg) {
      if (parts[i] !== seg.literal) return undefined;
    } else if (seg.greedy) {
      if (i >= parts.length) return undefined;
      params[seg.param] = decode(parts.slice(i).join('/'));
      return params;
    } else {
      if (!parts[i]) return undefined;
      params[seg.param] = decode(parts[i]!);
    }
  }
  return parts.length === r.segments.length ? params : undefined;
}

/** API Gateway's priority: literal segments before variables before greedy ones, left to right; a method before ANY. */
function moreSpecific(a: CompiledRoute, b: CompiledRoute): number {
  const rank = (s: Segment | undefined) => (s === undefined ? -1 : 'literal' in s ? 2 : s.greedy ? 0 : 1);
  for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
    const d = rank(b.segments[i]) - rank(a.segments[i]);
    if (d) return d;
  }
  return Number(a.method === 'ANY') - Number(b.method === 'ANY');
}

export function selectRoute(routes: readonly CompiledRoute[], method: string, path: string) {
  const parts = path.split('/').slice(1);
  const hits = routes
    .filter((r) => r.method === method || r.method === 'ANY')
    .map((r) => ({ r, params: matchRoute(r, parts) }))
    .filter((h): h is { r: CompiledRoute; params: Record<string, string> } => h.params !== undefined)
    .sort((x, y) => moreSpecific(x.r, y.r));
  return hits[0];
}

export interface HttpAnswer {
  statusCode: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

const internalError = (): HttpAnswer => ({
  statusCode: 502,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify({ message: 'Internal Server Error' })),
});

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
  log?(line: string): void;
  /** Headers set on every request before it is matched, as CloudFront sets its origin headers (edge=on). */
  addHeaders?: Record<string, string>;
  /** Paths served as static files beside the API, as CloudFront sends /console/* to the console's bucket. */
  site?: { owns(pathname: string): boolean; serve(req: IncomingMessage, res: ServerResponse): void };
}

function write(res: ServerResponse, a: HttpAnswer, requestId: string): void {
  res.writeHead(a.statusCode, { ...a.headers, 'apigw-requestid': requestId });
  res.end(a.body);
}

export function createGateway(opts: GatewayOptions): Server {
  const routes = opts.routes.map(compileRoute);
  return createServer((req, res) => {
    if (opts.site?.owns(new URL(req.url ?? '/', 'http://local').pathname)) return opts.site.serve(req, res);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= REQUEST_LIMIT) chunks.push(c);
    });
    req.on('end', async () => {
      const requestId = randomUUID();
      const url = new URL(req.url ?? '/', 'http://local');
      const method = (req.method ?? 'GET').toUpperCase();
      if (size > REQUEST_LIMIT) {
        return write(res, { statusCode: 413, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"message":"Request Entity Too Large"}') }, requestId);
      }
      const hit = selectRoute(routes, method, url.pathname);
      const functionId = hit?.r.functionId ?? opts.defaultFunction;
      if (!functionId) return write(res, { statusCode: 404, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"message":"Not Found"}') }, requestId);
      const body = chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined;
      // Like CloudFront, replacing any value the client sent under the same name.
      for (const [name, value] of Object.entries(opts.addHeaders ?? {})) req.headers[name.toLowerCase()] = value;
      const event = toApiGatewayEvent(req, url, body, { routeKey: hit?.r.routeKey ?? '$default', pathParameters: hit?.params ?? {} });
      event.requestContext.requestId = requestId;
      const eventBytes = Buffer.byteLength(JSON.stringify(event));
      if (eventBytes > INVOKE_LIMIT) {
        opts.log?.(`REFUSED ${functionId} RequestId: ${requestId} the event is ${eventBytes} bytes; Lambda takes at most ${INVOKE_LIMIT}`);
        return write(res, { ...internalError(), statusCode: 500 }, requestId);
      }
      try {
        write(res, toHttpAnswer(await opts.invoke(functionId, event)), requestId);
      } catch {
        write(res, internalError(), requestId);
      }
    });
  });
}
