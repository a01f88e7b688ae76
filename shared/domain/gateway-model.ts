/**
 * The gateway model (pure): what an installation's API definitions ask of a data plane, as one
 * routing table that every gateway renderer reads (nginx configuration, API Gateway routes). Per
 * host (a domain granted to an organisation, or '' for the shared hosts), the routes longest
 * listen path first, each with its upstream, path handling, where the key is read, header rules,
 * body limit, timeout and CORS. Definitions are read in their classic form, which OAS APIs carry
 * too (one mapping, oas-classic.ts). What each member of a definition becomes here is the table
 * GATEWAY_MEMBERS: honoured, approximated (and how), or ignored (and why).
 *
 * The routing rules are contract §13's: an API claims a route only where its claim holds (its
 * domain granted to its organisation; on the shared hosts not `/`, not nested under another
 * organisation's listen path); inactive and internal APIs and APIs without a listen path route
 * nothing. A definition a gateway cannot express is reported, never half-applied.
 */
import { portalsByDomain, takenByPortal, type PortalDomain, type PortalOnHost } from './portal-host';
import type { ApiRecord } from './api-records';
import { claimViolations, listenClaimOf, type HeldClaim } from './listen-paths';
import { isPlainObject } from '../lib/plain-object';

type Json = Record<string, unknown>;

export interface Upstream {
  scheme: 'http' | 'https';
  host: string;
  port: number;
  /** The upstream URL's path, without a trailing slash ('' for none). */
  basePath: string;
}

/** Where a request's key is read, or keyless. */
type KeyLocation = { keyless: true } | { keyless: false; header: string; queryParam?: string };

interface Cors {
  allowedOrigins: string[];
  allowedMethods: string[];
  allowedHeaders: string[];
  exposedHeaders: string[];
  allowCredentials: boolean;
  maxAgeSeconds?: number;
  /** The upstream answers preflight requests itself. */
  optionsPassthrough: boolean;
}

export interface GatewayRoute {
  apiId: string;
  orgId: string;
  /** The normal form of the listen path, without a trailing slash (`/` for the root of a granted domain). */
  listenPath: string;
  /** One upstream, or several taken in turn (load balancing). */
  upstreams: Upstream[];
  stripListenPath: boolean;
  /** The client's Host goes upstream (else the upstream's own host). */
  preserveHost: boolean;
  key: KeyLocation;
  requestHeaders: { add: Record<string, string>; remove: string[] };
  /** The largest request body taken, in bytes (none: the gateway's default). */
  bodyLimitBytes?: number;
  /** How long the upstream may take to answer, in seconds (none: the gateway's default). */
  upstreamTimeoutSeconds?: number;
  cors?: Cors;
}

interface GatewayHost {
  /** A domain granted to an organisation, or '' for the shared hosts. */
  host: string;
  /** Longest listen path first: the order a gateway tries them in. */
  routes: GatewayRoute[];
  /** The organisation's developer portal, when it is served on this domain (portal-host.ts). */
  portal?: PortalOnHost;
}

interface SkippedApi {
  apiId: string;
  orgId: string;
  reason: string;
}

export interface GatewayModel {
  hosts: GatewayHost[];
  /** Definitions that ask for a route no gateway may or can give them, and why. */
  skipped: SkippedApi[];
}

/** What the model reads of a stored API. */
export type ModelApi = Pick<ApiRecord, 'api_id' | 'org_id' | 'kind' | 'classic' | 'oas'>;

const obj = (v: unknown): Json => (isPlainObject(v) ? v : {});
const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim()) : []);
const positive = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);

/** An upstream URL as a gateway can proxy to it, or why not. */
export function upstreamOf(url: string): Upstream | string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `its upstream ${JSON.stringify(url)} is not an absolute URL`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `its upstream uses ${u.protocol} (only http and https are proxied)`;
  if (u.username || u.password) return 'its upstream carries credentials in its URL (send them as header rules instead)';
  const scheme = u.protocol === 'https:' ? 'https' : 'http';
  const port = u.port ? Number(u.port) : scheme === 'https' ? 443 : 80;
  let basePath = u.pathname;
  while (basePath.endsWith('/')) basePath = basePath.slice(0, -1);
  return { scheme, host: u.hostname, port, basePath };
}

/** The version whose rules apply: the default one of `version_data` (the only one a route can hold). */
function defaultVersion(c: Json): Json {
  const data = obj(c.version_data);
  const versions = obj(data.versions);
  return obj(versions[str(data.default_version) || 'Default'] ?? Object.values(versions)[0]);
}

/** The header OAS API keys are read from: the first apiKey scheme the document enables in a header or query. */
function oasKeyLocation(api: ModelApi): KeyLocation | undefined {
  const auth = obj(obj(obj(api.oas?.['x-gw-api-gateway']).server).authentication);
  const schemes = obj(auth.securitySchemes);
  const declared = obj(obj(api.oas?.components).securitySchemes);
  for (const [name, scheme] of Object.entries(schemes)) {
    if (obj(scheme).enabled !== true) continue;
    const header = obj(obj(scheme).header);
    const query = obj(obj(scheme).query);
    const d = obj(declared[name]);
    const headerName = str(header.name) || (d.in === 'header' ? str(d.name) : '');
    const queryName = str(query.name) || (d.in === 'query' ? str(d.name) : '');
    if (headerName || queryName) return { keyless: false, header: headerName || 'Authorization', ...(queryName ? { queryParam: queryName } : {}) };
  }
  return undefined;
}

function keyOf(api: ModelApi): KeyLocation {
  const c = api.classic;
  if (c.use_keyless === true) return { keyless: true };
  const fromOas = api.kind === 'oas' ? oasKeyLocation(api) : undefined;
  if (fromOas) return fromOas;
  const auth = obj(c.auth);
  const param = auth.use_param === true ? str(auth.param_name) || 'api_key' : '';
  return { keyless: false, header: str(auth.auth_header_name) || 'Authorization', ...(param ? { queryParam: param } : {}) };
}

function corsOf(c: Json): Cors | undefined {
  const cors = obj(c.CORS);
  if (cors.enable !== true) return undefined;
  return {
    allowedOrigins: strs(cors.allowed_origins),
    allowedMethods: strs(cors.allowed_methods),
    allowedHeaders: strs(cors.allowed_headers),
    exposedHeaders: strs(cors.exposed_headers),
    allowCredentials: cors.allow_credentials === true,
    ...(positive(cors.max_age) ? { maxAgeSeconds: positive(cors.max_age) } : {}),
    optionsPassthrough: cors.options_passthrough === true,
  };
}

/** A timeout for the whole API: the hard timeout of its root path (`/` or empty), as the gateway applies per path. */
function timeoutOf(version: Json): number | undefined {
  const timeouts = obj(version.extended_paths).hard_timeouts;
  if (!Array.isArray(timeouts)) return undefined;
  const root = timeouts.map(obj).find((t) => ['', '/', '/*'].includes(str(t.path)));
  return root ? positive(root.timeout) : undefined;
}

/** The route an API asks for, or why it asks for none. */
export function routeOf(api: ModelApi, listenPath: string): GatewayRoute | string {
  const c = api.classic;
  const proxy = obj(c.proxy);
  const targets = proxy.enable_load_balancing === true ? strs(proxy.target_list) : [];
  const urls = targets.length > 0 ? targets : [str(proxy.target_url)];
  if (urls[0] === '') return 'it names no upstream (proxy.target_url)';
  const upstreams: Upstream[] = [];
  for (const url of urls) {
    const u = upstreamOf(url);
    if (typeof u === 'string') return u;
    upstreams.push(u);
  }
  const version = defaultVersion(c);
  const add = version.global_headers_disabled === true ? {} : obj(version.global_headers);
  return {
    apiId: api.api_id,
    orgId: api.org_id,
    listenPath,
    upstreams,
    stripListenPath: proxy.strip_listen_path === true,
    preserveHost: proxy.preserve_host_header === true,
    key: keyOf(api),
    requestHeaders: {
      add: Object.fromEntries(Object.entries(add).filter(([k, v]) => k.trim() !== '' && typeof v === 'string')) as Record<string, string>,
      remove: version.global_headers_disabled === true ? [] : strs(version.global_headers_remove),
    },
    ...(positive(version.global_size_limit) ? { bodyLimitBytes: positive(version.global_size_limit) } : {}),
    ...(timeoutOf(version) ? { upstreamTimeoutSeconds: timeoutOf(version) } : {}),
    ...(corsOf(c) ? { cors: corsOf(c) } : {}),
  };
}

const segments = (p: string) => p.split('/').filter(Boolean).length;

/**
 * The routing table of an installation: `apis` are its stored definitions, `grants` each granted
 * domain's organisation (contract §13).
 */
export function gatewayModel(apis: readonly ModelApi[], grants: ReadonlyMap<string, string>, portals: readonly PortalDomain[] = []): GatewayModel {
  const portalOf = portalsByDomain(portals, grants);
  const skipped: SkippedApi[] = [];
  const skip = (api: ModelApi, reason: string) => skipped.push({ apiId: api.api_id, orgId: api.org_id, reason });
  // An inactive API keeps its claim (listen-paths.ts), so it counts for the rules, not for routes.
  const claimed: Array<{ api: ModelApi; claim: HeldClaim }> = [];
  for (const api of apis) {
    const claim = listenClaimOf(api);
    if (claim) claimed.push({ api, claim: { ...claim, api_id: api.api_id, org_id: api.org_id } }); // none: reached by id only
  }
  const broken = new Map<string, string>();
  for (const v of claimViolations(
    claimed.map((c) => c.claim),
    grants,
  )) {
    if (!v.served) broken.set(v.claim.api_id, `its claim breaks the routing rules (${v.rule})`);
  }
  const byHost = new Map<string, GatewayRoute[]>();
  for (const { api, claim } of claimed) {
    const portal = portalOf.get(claim.domain);
    const why =
      api.classic.active === false
        ? 'it is inactive'
        : (broken.get(api.api_id) ??
          (portal && takenByPortal(portal, claim.path) ? `the organisation's developer portal takes ${claim.path} on ${claim.domain}` : undefined));
    if (why) {
      skip(api, why);
      continue;
    }
    const route = routeOf(api, claim.path);
    if (typeof route === 'string') {
      skip(api, route);
      continue;
    }
    byHost.set(claim.domain, [...(byHost.get(claim.domain) ?? []), route]);
  }
  // A portal's domain is served whether or not an API stands on it.
  for (const domain of portalOf.keys()) if (!byHost.has(domain)) byHost.set(domain, []);
  const hosts = [...byHost.entries()]
    .sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)))
    .map(([host, routes]) => ({
      host,
      routes: routes.sort((a, b) => segments(b.listenPath) - segments(a.listenPath) || a.listenPath.localeCompare(b.listenPath)),
      ...(portalOf.has(host) ? { portal: portalOf.get(host)! } : {}),
    }));
  return { hosts, skipped: skipped.sort((a, b) => a.apiId.localeCompare(b.apiId)) };
}
