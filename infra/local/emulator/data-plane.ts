/**
 * The data-plane HTTP APIs as API Gateway serves them from their routes and integrations
 * (./data-plane-state.ts, changed by the reconciler through ./apigw-control.ts). A request's Host
 * picks the API: a custom domain name's mapped API (./apigw-account.ts), else the data-plane API
 * (its execute-api endpoint); a domain name without a mapping is 403. Then the most specific
 * route (an exact `ANY /path` before `ANY /path/{proxy+}`, longer paths first), its Lambda
 * authorizer when the route has one (./authorizer.ts: 401 without the identity value, 403 refused,
 * 500 failed), then the `HTTP_PROXY` integration: the request goes to the integration's URI with
 * the path its `overwrite:path` mapping makes (`$request.path`, `$request.path.proxy`) and its
 * header mappings applied, and the upstream's answer comes back as it is. No route is 404
 * `{"message":"Not Found"}`; an upstream that cannot be reached is 500, one past the timeout 504.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { randomUUID } from 'node:crypto';
import type { ApigwIntegration, ApigwRoute } from '../../../shared/domain/apigw-plan';
import { toApiGatewayEvent } from '../event';
import { authorizerRunner } from './authorizer';
import { whenBodyRead } from './gateway';
import type { ApiGatewayAccount } from './apigw-account';
import type { Outcome } from './runtime';

/** Headers that belong to one connection, never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length']);

export interface DataPlaneOptions {
  account: ApiGatewayAccount;
  /** The template's data-plane API: what a request on any host but a custom domain name reaches. */
  apiId: string;
  invoke(functionId: string, event: unknown): Promise<Outcome>;
  executeApiArn: string;
}

/** The route for a path, by API Gateway's precedence, and the greedy part it matched. */
function matchRoute(routes: readonly ApigwRoute[], path: string): { route: ApigwRoute; proxy?: string } | undefined {
  let best: { route: ApigwRoute; proxy?: string; score: number } | undefined;
  for (const route of routes) {
    const m = /^ANY (\/.*?)(\/\{proxy\+\})?$/.exec(route.RouteKey);
    if (!m) continue;
    const base = m[2] ? (m[1] === '/' ? '' : m[1]!) : m[1]!;
    if (!m[2]) {
      if (path === base || (base !== '/' && path === `${base}/`)) return { route };
      continue;
    }
    if (!path.startsWith(`${base}/`) || path.length <= base.length + 1) continue;
    const score = base.length;
    if (!best || score > best.score) best = { route, proxy: path.slice(base.length + 1), score };
  }
  return best && { route: best.route, proxy: best.proxy };
}

/** The upstream request an integration makes of a client's request. */
function upstreamOf(i: ApigwIntegration, url: URL, proxy: string | undefined, headers: IncomingMessage['headers']) {
  const params = i.RequestParameters ?? {};
  const pathTemplate = params['overwrite:path'] ?? '$request.path';
  const path = pathTemplate.replaceAll('$request.path.proxy', proxy ?? '').replaceAll('$request.path', url.pathname) || '/';
  const target = new URL(`${path.startsWith('/') ? path : `/${path}`}${url.search}`, i.IntegrationUri);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  for (const [key, value] of Object.entries(params)) {
    const [op, where] = key.split(':');
    const name = where?.startsWith('header.') ? where.slice('header.'.length).toLowerCase() : undefined;
    if (!name) continue;
    if (op === 'overwrite' || op === 'append') out[name] = value;
    else if (op === 'remove') delete out[name];
  }
  return { target, headers: out };
}

const json = (status: number, message: string) => ({ status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ message })) });

export function createDataPlane(opts: DataPlaneOptions): Server {
  const authorizers = authorizerRunner({ executeApiArn: opts.executeApiArn, invoke: opts.invoke });
  return createServer((req, res) => {
    whenBodyRead(req, async (body) => {
      const requestId = randomUUID();
      const reply = (a: { status: number; headers: Record<string, string | string[]>; body: Buffer }) => {
        res.writeHead(a.status, { ...a.headers, 'content-length': String(a.body.length), 'apigw-requestid': requestId });
        res.end(a.body);
      };
      if (!body) return reply(json(413, 'Request Entity Too Large'));
      const url = new URL(req.url ?? '/', 'http://local');
      const api = opts.account.serving(req.headers.host ?? '', opts.apiId);
      if (!api) return reply(json(403, 'Forbidden'));
      const hit = matchRoute(await api.state.routes(), url.pathname);
      const integration = hit && api.state.integrationMap.get(String(hit.route.Target).replace(/^integrations\//, ''));
      if (!hit || !integration) return reply(json(404, 'Not Found'));
      if (hit.route.AuthorizationType === 'CUSTOM') {
        const authorizer = api.authorizers.get(hit.route.AuthorizerId ?? '');
        if (!authorizer) return reply(json(500, 'Internal Server Error'));
        const event = toApiGatewayEvent(req, url, body.length ? body.toString('utf8') : undefined, {
          routeKey: hit.route.RouteKey,
          pathParameters: hit.proxy === undefined ? {} : { proxy: hit.proxy },
        });
        event.requestContext.requestId = requestId;
        event.requestContext.apiId = api.ApiId;
        event.requestContext.domainName = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
        const decision = await authorizers.decide(authorizer, event);
        if (!decision.allow) return reply(json(decision.status, decision.message));
      }
      const { target, headers } = upstreamOf(integration, url, hit.proxy, req.headers);
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const out = send(target, { method: req.method, headers, timeout: integration.TimeoutInMillis ?? 30_000 }, (up) => {
        const answer: Buffer[] = [];
        up.on('data', (c: Buffer) => answer.push(c));
        up.on('end', () => {
          const back: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(up.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) back[name] = value;
          reply({ status: up.statusCode ?? 502, headers: back, body: Buffer.concat(answer) });
        });
        up.on('error', () => reply(json(500, 'Internal Server Error')));
      });
      out.on('timeout', () => out.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
      out.on('error', (e: Error & { code?: string }) => {
        if (!res.headersSent) reply(e.code === 'TIMEOUT' ? json(504, 'Service Unavailable') : json(500, 'Internal Server Error'));
      });
      out.end(body);
    });
  });
}
