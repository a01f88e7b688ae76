/**
 * The routing table (GET /gw/routing) as an nginx configuration (pure): an `http`-level file, one
 * `server` per domain and one for the shared hosts, one `location` pair per listen path (nginx's
 * longest prefix wins, as the table orders them), an auth subrequest per route with its API pinned
 * by this file, never by the client (contract §13), and `proxy_pass` to the decided path the
 * control plane answers, stripped of the listen path where the definition asks; on a domain that
 * carries its organisation's developer portal, the portal's paths go to the control plane. A route
 * nginx cannot express is left out and reported, never half-written.
 */
import type { operations } from '../generated/api';

export type RoutingTable = operations['routingTable']['responses'][200]['content']['application/json'];
type Route = RoutingTable['hosts'][number]['routes'][number];

export interface NginxOptions {
  /** Where nginx listens (`8000`, `127.0.0.1:8000`). */
  listen: string;
  /** The host names of the shared hosts (server_name of their server): the installation's own names. */
  sharedNames: string[];
  /** The control plane, as nginx reaches it. */
  control: { scheme: 'http' | 'https'; hostPort: string };
  /** The gateway credential, written into the auth subrequest (the file is the gateway's own: keep it 0600). */
  gatewaySecret: string;
}

export interface RenderedNginx {
  text: string;
  /** Routes left out, and why (besides those the table already leaves out). */
  skipped: Array<{ apiId: string; reason: string }>;
}

/** What a quoted nginx string, a header name or a location may hold: nothing nginx would read as syntax or a variable. */
const SAFE_VALUE = /^[\x20-\x7e]*$/;
const UNSAFE_IN_VALUE = /["\\$;{}]/;
const HEADER_NAME = /^[A-Za-z0-9!#%&'*+.^_`|~-]{1,256}$/;
const SAFE_LOCATION = /^\/[A-Za-z0-9._~!&()*+,=:@/-]*$/;
const SAFE_HOST = /^[a-z0-9.-]{1,253}$/;

const quoted = (v: string) => `"${v}"`;
const valueProblem = (what: string, v: string) =>
  !SAFE_VALUE.test(v) || UNSAFE_IN_VALUE.test(v) ? `${what} holds a character nginx would read as syntax or a variable` : undefined;

/** nginx matches locations on the decoded path: a listen path in normal form, decoded, or why it cannot be one. */
function locationOf(listenPath: string): string | { problem: string } {
  let decoded: string;
  try {
    decoded = decodeURIComponent(listenPath);
  } catch {
    return { problem: 'its listen path does not decode' };
  }
  return SAFE_LOCATION.test(decoded) ? decoded : { problem: 'its listen path holds characters an nginx location cannot match literally' };
}

/** The nginx variable of a request header (`X-Api-Key` -> `$http_x_api_key`). */
const headerVariable = (name: string) => `$http_${name.toLowerCase().replace(/-/g, '_')}`;

function routeProblem(r: Route): string | undefined {
  const schemes = new Set(r.upstreams.map((u) => u.scheme));
  if (schemes.size > 1) return 'its upstreams mix http and https';
  for (const u of r.upstreams)
    if (!SAFE_HOST.test(u.host) && !/^\[[0-9a-f:.]+\]$/i.test(u.host)) return `its upstream host ${u.host} is not one nginx can name`;
  if (r.upstreams[0]!.basePath && typeof locationOf(r.upstreams[0]!.basePath) !== 'string')
    return 'its upstream base path holds characters nginx cannot pass on';
  if (!r.key.keyless) {
    if (!HEADER_NAME.test(r.key.header)) return `its key header ${r.key.header} is not a header name`;
    if (r.key.queryParam !== undefined && !/^[A-Za-z0-9._~-]{1,128}$/.test(r.key.queryParam)) return 'its key query parameter is not one nginx can pass on';
  }
  for (const [name, value] of Object.entries(r.requestHeaders.add)) {
    if (!HEADER_NAME.test(name)) return `its request header rule names ${JSON.stringify(name)}, which is not a header name`;
    const p = valueProblem(`the value of its request header ${name}`, value);
    if (p) return p;
  }
  for (const name of r.requestHeaders.remove)
    if (!HEADER_NAME.test(name)) return `its request header rule removes ${JSON.stringify(name)}, which is not a header name`;
  if (r.cors) {
    for (const v of [...r.cors.allowedOrigins, ...r.cors.allowedMethods, ...r.cors.allowedHeaders, ...r.cors.exposedHeaders]) {
      const p = valueProblem('its CORS settings', v);
      if (p) return p;
    }
  }
  return undefined;
}

/** The identity the control plane answers, passed upstream; the rate headers passed to the client. */
const ANSWER_HEADERS = [
  ['gw_status', 'upstream_status'],
  ['gw_path', 'upstream_http_x_gw_path'],
  ['gw_api_path', 'upstream_http_x_gw_api_path'],
  ['gw_retry_after', 'upstream_http_retry_after'],
  ['gw_limit', 'upstream_http_x_ratelimit_limit'],
  ['gw_remaining', 'upstream_http_x_ratelimit_remaining'],
  ['gw_reset', 'upstream_http_x_ratelimit_reset'],
  ['gw_key_hash', 'upstream_http_x_gw_key_hash'],
  ['gw_org_id', 'upstream_http_x_gw_org_id'],
  ['gw_quota_remaining', 'upstream_http_x_gw_quota_remaining'],
] as const;

function locationBody(r: Route, i: number): string[] {
  const u = r.upstreams[0]!;
  const upstreamHost = r.upstreams.length === 1 && !(u.port === (u.scheme === 'https' ? 443 : 80)) ? `${u.host}:${u.port}` : u.host;
  const lines = [
    `auth_request /_gw_auth_${i};`,
    ...ANSWER_HEADERS.map(([v, from]) => `auth_request_set $${v} $${from};`),
    'error_page 500 = @gw_refused;',
    'add_header X-RateLimit-Limit $gw_limit always;',
    'add_header X-RateLimit-Remaining $gw_remaining always;',
    'add_header X-RateLimit-Reset $gw_reset always;',
    `proxy_set_header X-Gw-Api-Id ${quoted(r.apiId)};`,
    'proxy_set_header X-Gw-Key-Hash $gw_key_hash;',
    'proxy_set_header X-Gw-Org-Id $gw_org_id;',
    'proxy_set_header X-Gw-Quota-Remaining $gw_quota_remaining;',
    ...(r.key.keyless ? [] : [`proxy_set_header ${r.key.header} "";`]),
    `proxy_set_header Host ${r.preserveHost ? '$host' : quoted(upstreamHost)};`,
    ...Object.entries(r.requestHeaders.add).map(([name, value]) => `proxy_set_header ${name} ${quoted(value)};`),
    ...r.requestHeaders.remove.map((name) => `proxy_set_header ${name} "";`),
    'proxy_http_version 1.1;',
    'proxy_set_header Connection "";',
    ...(r.bodyLimitBytes !== undefined ? [`client_max_body_size ${Math.floor(r.bodyLimitBytes)};`] : []),
    ...(r.upstreamTimeoutSeconds !== undefined ? [`proxy_read_timeout ${Math.ceil(r.upstreamTimeoutSeconds)}s;`] : []),
    ...(u.scheme === 'https' ? ['proxy_ssl_server_name on;', `proxy_ssl_name ${u.host};`] : []),
  ];
  if (r.cors) {
    lines.push(`add_header Access-Control-Allow-Origin $gw_cors_origin_${i} always;`);
    if (r.cors.allowCredentials) lines.push('add_header Access-Control-Allow-Credentials "true" always;');
    if (r.cors.exposedHeaders.length) lines.push(`add_header Access-Control-Expose-Headers ${quoted(r.cors.exposedHeaders.join(', '))} always;`);
    if (!r.cors.optionsPassthrough) {
      const methods = r.cors.allowedMethods.length ? r.cors.allowedMethods : ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
      lines.push(
        'if ($request_method = OPTIONS) {',
        `    add_header Access-Control-Allow-Origin $gw_cors_origin_${i} always;`,
        `    add_header Access-Control-Allow-Methods ${quoted(methods.join(', '))} always;`,
        ...(r.cors.allowedHeaders.length ? [`    add_header Access-Control-Allow-Headers ${quoted(r.cors.allowedHeaders.join(', '))} always;`] : []),
        ...(r.cors.maxAgeSeconds ? [`    add_header Access-Control-Max-Age ${Math.floor(r.cors.maxAgeSeconds)} always;`] : []),
        '    return 204;',
        '}',
      );
    }
  }
  const path = r.stripListenPath ? '$gw_api_path' : '$gw_path';
  lines.push(`proxy_pass ${u.scheme}://gw_up_${i}${u.basePath}${path}$is_args$args;`);
  return lines;
}

function authLocation(r: Route, i: number, o: NginxControl): string[] {
  const keyLines = r.key.keyless
    ? ['proxy_set_header X-Gw-Keyless 1;']
    : [
        `proxy_set_header ${r.key.header} ${headerVariable(r.key.header)};`,
        ...(r.key.header.toLowerCase() !== 'authorization' ? [`proxy_set_header X-Gw-Key-Header ${r.key.header};`] : []),
        ...(r.key.queryParam ? [`proxy_set_header X-Gw-Key-Param ${r.key.queryParam};`] : []),
      ];
  return [
    `location = /_gw_auth_${i} {`,
    '    internal;',
    '    proxy_method HEAD;',
    `    proxy_pass ${o.control.scheme}://gw_control/gw/ext-authz/nginx;`,
    '    proxy_pass_request_body off;',
    '    proxy_pass_request_headers off;',
    ...keyLines.map((l) => `    ${l}`),
    '    proxy_set_header X-Original-URI $request_uri;',
    '    proxy_set_header X-Original-Method $request_method;',
    '    proxy_set_header X-Original-Host $host;',
    `    proxy_set_header X-Gw-Api-Id ${quoted(r.apiId)};`,
    `    proxy_set_header X-Gw-Listen-Path ${quoted(r.listenPath)};`,
    `    proxy_set_header X-Gw-Authorization ${quoted(o.gatewaySecret)};`,
    ...(o.control.scheme === 'https' ? ['    proxy_ssl_server_name on;'] : []),
    '    proxy_http_version 1.1;',
    '    proxy_set_header Connection "";',
    '}',
  ];
}

type NginxControl = Pick<NginxOptions, 'control' | 'gatewaySecret'>;
type Portal = NonNullable<RoutingTable['hosts'][number]['portal']>;

/**
 * The organisation's developer portal on its domain: its paths go to the control plane as sent,
 * with the viewer's address (which the portal's sign-in counts attempts by) vouched for by the
 * gateway credential; an encoded slash, dot or backslash is refused, so the control plane reads
 * the path as nginx matched it. The rest of what it reserves (/console/) is 404. `/` leads to the
 * portal unless an API listens there.
 */
function portalLocations(portal: Portal, o: NginxControl, root: boolean): string[] {
  const body = [
    'if ($request_uri ~* "%2f|%2e|%5c") { return 400; }',
    `proxy_pass ${o.control.scheme}://gw_control;`,
    'proxy_set_header X-Forwarded-Host $host;',
    'proxy_set_header X-Forwarded-Proto $scheme;',
    'proxy_set_header X-Gw-Viewer-Address $remote_addr;',
    `proxy_set_header X-Gw-Authorization ${quoted(o.gatewaySecret)};`,
    ...(o.control.scheme === 'https' ? ['proxy_ssl_server_name on;'] : []),
    'proxy_http_version 1.1;',
    'proxy_set_header Connection "";',
  ];
  const lines = portal.paths.flatMap((p) => [`location ${p.endsWith('/') ? '^~' : '='} ${p} {`, ...body.map((l) => `    ${l}`), '}']);
  // What the portal reserves on its domain and does not serve (the rest of /console/): no API's, and not the control plane's either.
  for (const r of portal.reserved.filter((r) => !portal.paths.includes(`${r}/`)))
    lines.push(`location ^~ ${r}/ {`, '    default_type application/json;', `    return 404 '{"status":"error","message":"Not Found"}\n';`, '}');
  // A relative Location: nginx would otherwise name its own port and scheme, not the ones the viewer used.
  if (!root) lines.push(`location = / { absolute_redirect off; return 302 ${portal.home}; }`);
  return lines;
}

/** The path of the default server that answers the routing version of the file the workers run. */
export const VERSION_PROBE = '/_gw_routing_version';

const REFUSED = [
  'location @gw_refused {',
  '    default_type application/json;',
  '    if ($gw_status = 429) {',
  '        add_header Retry-After $gw_retry_after always;',
  '        add_header X-RateLimit-Limit $gw_limit always;',
  '        add_header X-RateLimit-Remaining $gw_remaining always;',
  '        add_header X-RateLimit-Reset $gw_reset always;',
  `        return 429 '{"status":"error","message":"Quota or rate limit exceeded"}\\n';`,
  '    }',
  `    if ($gw_status = 404) { return 404 '{"status":"error","message":"No API listens here"}\\n'; }`,
  `    if ($gw_status = 400) { return 400 '{"status":"error","message":"The path is read in different ways by different upstreams"}\\n'; }`,
  `    return 500 '{"status":"error","message":"Authorisation is unavailable"}\\n';`,
  '}',
];

/** The whole configuration for `table`. */
export function renderNginx(table: RoutingTable, o: NginxOptions): RenderedNginx {
  const skipped: RenderedNginx['skipped'] = [];
  const http: string[] = [
    `# Rendered by gwctl gateway nginx from routing version ${table.version}. Do not edit: it is written again on every change.`,
    'upstream gw_control {',
    `    server ${o.control.hostPort};`,
    '    keepalive 64;',
    '}',
  ];
  const servers: string[] = [
    'server {',
    `    listen ${o.listen} default_server;`,
    '    default_type application/json;',
    // What gwctl asks after a reload: answered once nginx's workers run this very file.
    `    location = ${VERSION_PROBE} { return 200 '${table.version}'; }`,
    `    location / { return 404 '{"status":"error","message":"Unknown host"}\\n'; }`,
    '}',
  ];
  // The shared hosts are served whether or not any route stands on them yet.
  const hosts = table.hosts.some((h) => h.host === '') ? table.hosts : [{ host: '', routes: [] }, ...table.hosts];
  let i = 0;
  for (const host of hosts) {
    const names = host.host === '' ? o.sharedNames : [host.host];
    if (names.length === 0) {
      for (const r of host.routes) skipped.push({ apiId: r.apiId, reason: 'no host name is served for the shared hosts (--server-name)' });
      continue;
    }
    const locations: string[] = [];
    let root = false;
    for (const r of host.routes) {
      const location = locationOf(r.listenPath);
      const problem = typeof location === 'string' ? routeProblem(r) : location.problem;
      if (problem || typeof location !== 'string') {
        skipped.push({ apiId: r.apiId, reason: problem ?? 'unreachable' });
        continue;
      }
      i++;
      http.push(`upstream gw_up_${i} {`, ...r.upstreams.map((u) => `    server ${u.host}:${u.port};`), '    keepalive 16;', '}');
      if (r.cors) {
        const any = r.cors.allowedOrigins.includes('*');
        http.push(
          `map $http_origin $gw_cors_origin_${i} {`,
          `    default ${any ? '"*"' : '""'};`,
          ...r.cors.allowedOrigins.filter((x) => x !== '*').map((origin) => `    ${quoted(origin)} $http_origin;`),
          '}',
        );
      }
      const body = locationBody(r, i).map((l) => `        ${l}`);
      const prefix = location === '/' ? '/' : `${location}/`;
      root ||= location === '/';
      if (location !== '/') locations.push(`    location = ${location} {`, ...body, '    }');
      locations.push(`    location ^~ ${prefix} {`, ...body, '    }');
      locations.push(...authLocation(r, i, o).map((l) => `    ${l}`));
    }
    // @gw_refused reads the auth answers, which only routes' locations define.
    const refused = locations.length ? REFUSED.map((l) => `    ${l}`) : [];
    // An organisation's id is of characters a location matches literally (idSchema).
    if (host.portal) locations.push(...portalLocations(host.portal, o, root).map((l) => `    ${l}`));
    // A path no route takes: the same 404 the control plane answers, not nginx's page.
    const nowhere = root
      ? []
      : ['    location / {', '        default_type application/json;', `        return 404 '{"status":"error","message":"No API listens here"}\\n';`, '    }'];
    servers.push('server {', `    listen ${o.listen};`, `    server_name ${names.join(' ')};`, ...locations, ...nowhere, ...refused, '}');
  }
  return { text: `${[...http, ...servers].join('\n')}\n`, skipped };
}
