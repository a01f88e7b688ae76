/**
 * The API Gateway data plane (pure): the changes that make a data-plane HTTP API's routes and
 * integrations equal to the gateway model. Per listen path two routes, `ANY <path>` and
 * `ANY <path>/{proxy+}`, each in front of an `HTTP_PROXY` integration to the upstream whose request
 * parameters set the path (stripped of the listen path or not) and the headers the definition adds
 * or removes. Keyed routes carry the project's Lambda authorizer, keyless ones none; no other
 * function stands in the request path. The data-plane API is the reconciler's alone: a route or
 * integration the model does not ask for is deleted.
 *
 * On a domain that carries its organisation's developer portal, the portal's paths go to the
 * portal's origin (the console's), keyless.
 *
 * A route API Gateway cannot express is reported and left out, never half-applied. Past the
 * service quotas (routes and integrations per API), listen paths already served keep their place
 * and the newest are reported as refused, so a new definition never takes traffic from a live one.
 */
import type { GatewayModel, GatewayRoute, Upstream } from './gateway-model';
import type { PortalOnHost } from './portal-host';

/** The HTTP API quotas that bound one data-plane API (docs: "Quotas for configuring and running an HTTP API"). */
const APIGW_QUOTAS = {
  routesPerApi: 300,
  integrationsPerApi: 300,
  /** The longest an integration may take, in milliseconds (not adjustable). */
  maxIntegrationTimeoutMs: 30_000,
  minIntegrationTimeoutMs: 50,
  /** The largest request payload API Gateway takes, in bytes (not adjustable). */
  maxPayloadBytes: 10 * 1024 * 1024,
  /** The request line and header values together, in bytes (not adjustable): what added headers count against. */
  maxRequestHeaderBytes: 10_240,
} as const;

/** Headers an HTTP API parameter mapping may not touch (docs: "Reserved headers"). */
const RESERVED_HEADERS = new Set([
  'authorization',
  'connection',
  'content-encoding',
  'content-length',
  'content-location',
  'forwarded',
  'host',
  'keep-alive',
  'origin',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailers',
  'transfer-encoding',
  'upgrade',
  'via',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
]);
const RESERVED_PREFIXES = ['access-control-', 'apigw-', 'x-amz-', 'x-amzn-'];
const HEADER_NAME = /^[A-Za-z0-9!#%&'*+.^_`|~-]{1,256}$/;
/** A route path segment API Gateway reads literally (no `{`, `}`, `+`, `$`, spaces). */
const ROUTE_PATH = /^\/[A-Za-z0-9._~!&'()*,;=:@/-]*$/;
/** What a static mapping value may hold: `$` would start a selection expression. */
const STATIC_VALUE = /^[\x20-\x23\x25-\x7e]+$/;

/** A route as API Gateway v2 describes it (GetRoutes). */
export interface ApigwRoute {
  RouteId: string;
  RouteKey: string;
  Target?: string;
  AuthorizationType?: string;
  AuthorizerId?: string;
}

/** An integration as API Gateway v2 describes it (GetIntegrations). */
export interface ApigwIntegration {
  IntegrationId: string;
  IntegrationType?: string;
  IntegrationUri?: string;
  IntegrationMethod?: string;
  PayloadFormatVersion?: string;
  TimeoutInMillis?: number;
  RequestParameters?: Record<string, string>;
  Description?: string;
}

/** The integration fields the plan sets; `Description` names it (the data plane's own key for it). */
export interface IntegrationSpec {
  Description: string;
  IntegrationType: 'HTTP_PROXY';
  IntegrationMethod: 'ANY';
  IntegrationUri: string;
  PayloadFormatVersion: '1.0';
  TimeoutInMillis: number;
  RequestParameters: Record<string, string>;
}

interface RouteSpec {
  RouteKey: string;
  /** The integration's Description: the reconciler resolves it to an id once it exists. */
  integration: string;
  AuthorizationType: 'CUSTOM' | 'NONE';
  AuthorizerId?: string;
}

export type ApigwChange =
  | { op: 'createIntegration'; spec: IntegrationSpec }
  | { op: 'updateIntegration'; integrationId: string; spec: IntegrationSpec }
  | { op: 'createRoute'; spec: RouteSpec }
  | { op: 'updateRoute'; routeId: string; spec: RouteSpec }
  | { op: 'deleteRoute'; routeId: string; routeKey: string }
  | { op: 'deleteIntegration'; integrationId: string };

export interface ApigwPlan {
  /** In the order they are to be applied: integrations before the routes that use them, deletions last. */
  changes: ApigwChange[];
  /** Routes of the model left out, and why (inexpressible, or past a quota). */
  skipped: Array<{ apiId: string; listenPath: string; reason: string }>;
}

/** A route as the reconciler writes it: its integration by id. */
export interface RouteWrite {
  RouteKey: string;
  Target: string;
  AuthorizationType: 'CUSTOM' | 'NONE';
  AuthorizerId?: string;
}

/** The control-plane calls on one data-plane API (an SDK client in the cloud, the emulator's locally). */
export interface DataPlaneApi {
  routes(): Promise<ApigwRoute[]>;
  integrations(): Promise<ApigwIntegration[]>;
  createIntegration(spec: IntegrationSpec): Promise<string>;
  updateIntegration(id: string, spec: IntegrationSpec): Promise<void>;
  deleteIntegration(id: string): Promise<void>;
  createRoute(route: RouteWrite): Promise<string>;
  updateRoute(id: string, route: RouteWrite): Promise<void>;
  deleteRoute(id: string): Promise<void>;
}

export interface PlanInput {
  model: GatewayModel;
  /** The host this data-plane API serves ('' for the shared hosts); an owned domain is its own API mapping. */
  host: string;
  /** The Lambda authorizer of the data-plane API, set on every keyed route. */
  authorizerId: string;
  current: { routes: readonly ApigwRoute[]; integrations: readonly ApigwIntegration[] };
  quotas?: { routesPerApi: number; integrationsPerApi: number };
  /**
   * Where an organisation's developer portal is served (the console's origin): on a domain that
   * carries one (portal-host.ts), its paths are sent there, keyless, ahead of the domain's APIs.
   */
  portalOrigin?: string;
}

const reservedHeader = (name: string) => {
  const n = name.toLowerCase();
  return RESERVED_HEADERS.has(n) || RESERVED_PREFIXES.some((p) => n.startsWith(p));
};

/** What API Gateway cannot do of a route, if anything. */
function inexpressible(r: GatewayRoute): string | undefined {
  if (r.upstreams.length !== 1) return 'API Gateway proxies to one upstream (load-balanced targets need nginx)';
  if (r.preserveHost) return 'API Gateway cannot send the client Host upstream (preserve_host_header)';
  if (r.cors && !r.cors.optionsPassthrough) return 'API Gateway sets CORS per data-plane API, not per route (use options_passthrough)';
  if (r.listenPath !== '/' && !ROUTE_PATH.test(r.listenPath)) return 'its listen path holds characters an API Gateway route reads as syntax';
  const base = r.upstreams[0]?.basePath ?? '';
  if (base !== '' && !ROUTE_PATH.test(base)) return 'its upstream path holds characters a path mapping reads as syntax';
  if ((r.upstreamTimeoutSeconds ?? 0) * 1000 > APIGW_QUOTAS.maxIntegrationTimeoutMs) return 'its upstream timeout is over the 30 s API Gateway allows';
  for (const name of [...Object.keys(r.requestHeaders.add), ...r.requestHeaders.remove]) {
    if (!HEADER_NAME.test(name)) return `its header rule names ${JSON.stringify(name)}, not a header name`;
    if (reservedHeader(name)) return `its header rule touches ${name}, a header API Gateway reserves`;
  }
  for (const value of Object.values(r.requestHeaders.add))
    if (!STATIC_VALUE.test(value)) return 'a header value holds `$` or a control character (a mapping would read it as an expression)';
  // Added headers leave less of the request line and headers for the client: past half of it, most requests would fail.
  const added = Object.entries(r.requestHeaders.add).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
  if (added > APIGW_QUOTAS.maxRequestHeaderBytes / 2)
    return `its added headers take ${added} bytes of the ${APIGW_QUOTAS.maxRequestHeaderBytes} API Gateway allows a request line and headers`;
  return undefined;
}

const integrationName = (r: GatewayRoute, proxy: boolean) => `gw:${r.apiId}:${proxy ? 'proxy' : 'bare'}`;

function integrationOf(r: GatewayRoute, u: Upstream, proxy: boolean): IntegrationSpec {
  const defaultPort = u.scheme === 'https' ? 443 : 80;
  const origin = `${u.scheme}://${u.host}${u.port === defaultPort ? '' : `:${u.port}`}`;
  // Stripped: the upstream's base path, then what follows the listen path; else the base path and the whole request path.
  const path = r.stripListenPath ? (proxy ? `${u.basePath}/$request.path.proxy` : u.basePath || '/') : `${u.basePath}$request.path`;
  const params: Record<string, string> = { 'overwrite:path': path };
  for (const [name, value] of Object.entries(r.requestHeaders.add)) params[`overwrite:header.${name}`] = value;
  for (const name of r.requestHeaders.remove) params[`remove:header.${name}`] = "''";
  return {
    Description: integrationName(r, proxy),
    IntegrationType: 'HTTP_PROXY',
    IntegrationMethod: 'ANY',
    IntegrationUri: origin,
    PayloadFormatVersion: '1.0',
    TimeoutInMillis: r.upstreamTimeoutSeconds
      ? Math.max(APIGW_QUOTAS.minIntegrationTimeoutMs, r.upstreamTimeoutSeconds * 1000)
      : APIGW_QUOTAS.maxIntegrationTimeoutMs,
    RequestParameters: params,
  };
}

/** The two route keys of a listen path: the bare path and everything under it. */
function routeKeysOf(listenPath: string): { bare: string; proxy: string } {
  const base = listenPath === '/' ? '' : listenPath;
  return { bare: `ANY ${base || '/'}`, proxy: `ANY ${base}/{proxy+}` };
}

const sameParams = (a: Record<string, string> = {}, b: Record<string, string> = {}) => {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
};

const sameIntegration = (c: ApigwIntegration, s: IntegrationSpec) =>
  c.IntegrationType === s.IntegrationType &&
  c.IntegrationMethod === s.IntegrationMethod &&
  c.IntegrationUri === s.IntegrationUri &&
  c.PayloadFormatVersion === s.PayloadFormatVersion &&
  c.TimeoutInMillis === s.TimeoutInMillis &&
  sameParams(c.RequestParameters, s.RequestParameters);

/** The portal's paths on its domain: one integration to the portal's origin, the path sent as it came. */
function portalRoutes(portal: PortalOnHost, origin: string): { integration: IntegrationSpec; routes: RouteSpec[] } {
  const integration: IntegrationSpec = {
    // `gw:<id>:portal`, beside the APIs' `gw:<api id>:proxy|bare`: no id holds a colon, so no API's name can be the portal's.
    Description: `gw:${portal.orgId}:portal`,
    IntegrationType: 'HTTP_PROXY',
    IntegrationMethod: 'ANY',
    IntegrationUri: origin,
    PayloadFormatVersion: '1.0',
    TimeoutInMillis: APIGW_QUOTAS.maxIntegrationTimeoutMs,
    RequestParameters: { 'overwrite:path': '$request.path' },
  };
  const keys = portal.paths.flatMap((p) => {
    if (!p.endsWith('/')) return [`ANY ${p}`];
    const { bare, proxy } = routeKeysOf(p.slice(0, -1));
    return [bare, proxy];
  });
  return { integration, routes: keys.map((RouteKey) => ({ RouteKey, integration: integration.Description, AuthorizationType: 'NONE' as const })) };
}

/** The changes that make `current` equal to the model's routes for `host`. */
export function planDataPlane(input: PlanInput): ApigwPlan {
  const quotas = input.quotas ?? APIGW_QUOTAS;
  const skipped: ApigwPlan['skipped'] = [];
  const served = input.model.hosts.find((h) => h.host === input.host);
  const routes = served?.routes ?? [];
  const liveKeys = new Set(input.current.routes.map((r) => r.RouteKey));
  const expressible: GatewayRoute[] = [];
  for (const r of routes) {
    const why = inexpressible(r);
    if (why) skipped.push({ apiId: r.apiId, listenPath: r.listenPath, reason: why });
    else expressible.push(r);
  }
  // Served listen paths first (they keep their place past a quota), then by API id: a stable order.
  const live = (r: GatewayRoute) => liveKeys.has(routeKeysOf(r.listenPath).proxy);
  expressible.sort((a, b) => Number(live(b)) - Number(live(a)) || a.apiId.localeCompare(b.apiId));

  const wantIntegrations = new Map<string, IntegrationSpec>();
  const wantRoutes = new Map<string, RouteSpec>();
  // The portal's few routes come first: past a quota, an API of the domain is left out, never the portal.
  if (served?.portal && input.portalOrigin) {
    const portal = portalRoutes(served.portal, input.portalOrigin);
    wantIntegrations.set(portal.integration.Description, portal.integration);
    for (const r of portal.routes) wantRoutes.set(r.RouteKey, r);
  }
  for (const r of expressible) {
    const [upstream] = r.upstreams;
    if (!upstream) continue; // inexpressible() holds there is exactly one
    const bare = integrationOf(r, upstream, false);
    const proxy = integrationOf(r, upstream, true);
    if (wantRoutes.size + 2 > quotas.routesPerApi || wantIntegrations.size + 2 > quotas.integrationsPerApi) {
      const limit = wantRoutes.size + 2 > quotas.routesPerApi ? `${quotas.routesPerApi} routes` : `${quotas.integrationsPerApi} integrations`;
      skipped.push({ apiId: r.apiId, listenPath: r.listenPath, reason: `the data-plane API is full (${limit} per API)` });
      continue;
    }
    const keys = routeKeysOf(r.listenPath);
    const auth = r.key.keyless ? { AuthorizationType: 'NONE' as const } : { AuthorizationType: 'CUSTOM' as const, AuthorizerId: input.authorizerId };
    wantIntegrations.set(bare.Description, bare);
    wantIntegrations.set(proxy.Description, proxy);
    wantRoutes.set(keys.bare, { RouteKey: keys.bare, integration: bare.Description, ...auth });
    wantRoutes.set(keys.proxy, { RouteKey: keys.proxy, integration: proxy.Description, ...auth });
  }

  const changes: ApigwChange[] = [];
  const integrationIds = new Map<string, string>();
  const deleteIntegrations: ApigwChange[] = [];
  for (const c of input.current.integrations) {
    const spec = c.Description ? wantIntegrations.get(c.Description) : undefined;
    if (!spec || integrationIds.has(spec.Description)) {
      deleteIntegrations.push({ op: 'deleteIntegration', integrationId: c.IntegrationId });
      continue;
    }
    integrationIds.set(spec.Description, c.IntegrationId);
    if (!sameIntegration(c, spec)) changes.push({ op: 'updateIntegration', integrationId: c.IntegrationId, spec });
  }
  for (const spec of wantIntegrations.values()) if (!integrationIds.has(spec.Description)) changes.push({ op: 'createIntegration', spec });

  const deleteRoutes: ApigwChange[] = [];
  const seen = new Set<string>();
  for (const c of input.current.routes) {
    const spec = wantRoutes.get(c.RouteKey);
    if (!spec || seen.has(c.RouteKey)) {
      deleteRoutes.push({ op: 'deleteRoute', routeId: c.RouteId, routeKey: c.RouteKey });
      continue;
    }
    seen.add(c.RouteKey);
    const id = integrationIds.get(spec.integration);
    const same =
      id !== undefined &&
      c.Target === `integrations/${id}` &&
      (c.AuthorizationType ?? 'NONE') === spec.AuthorizationType &&
      (c.AuthorizerId ?? undefined) === spec.AuthorizerId;
    if (!same) changes.push({ op: 'updateRoute', routeId: c.RouteId, spec });
  }
  for (const spec of wantRoutes.values()) if (!seen.has(spec.RouteKey)) changes.push({ op: 'createRoute', spec });
  return { changes: [...changes, ...deleteRoutes, ...deleteIntegrations], skipped };
}
