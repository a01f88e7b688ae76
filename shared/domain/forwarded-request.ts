/**
 * The original request a gateway forwards for external authorization (pure): nginx
 * `auth_request` names it in headers (X-Original-URI, X-Original-Method, X-Original-Host), Envoy's
 * `ext_authz` HTTP service sends it as it is, its path after the authorization route's prefix.
 * The gateway's configuration says where the client's key is (docs/using/serving-apis.md).
 *
 * Every header read here but the key's is a routing hint (contract §13): trusted because only the
 * gateway's configuration sets it, so the example configurations pass no client copy of any of
 * them. The path is decided in its normal form (request-path.ts), never as the client spelled it.
 */
import { LISTEN_PATH_DEPTH, normaliseDomain, normaliseListenPath } from './listen-paths';
import { decidedPath, headerText } from './request-path';

type Headers = Record<string, string | undefined>;

export interface ForwardedRequest {
  /** The client's key, when it sent one where the gateway said to look. */
  key: string | undefined;
  /** Where the key was looked for, as a refusal names it. */
  keyFrom: string;
  /** Lower-case host without port or trailing dot. */
  host: string;
  /** The path the decision is made on (request-path.ts), without its query; or why there is none (a 400). */
  path: { ok: true; path: string } | { ok: false; reason: string };
  method: string;
  /** The API, when the gateway names it (X-Gw-Api-Id) instead of leaving it to host and path. */
  apiId: string | undefined;
  /** The named API's listen path (X-Gw-Listen-Path), so the path after it can be told apart. */
  listenPath: string | undefined;
  /** The gateway routes the named API without a key (X-Gw-Keyless: 1); the service checks that the API is keyless. */
  keyless: boolean;
}

/** The header holding the key unless the gateway names another (X-Gw-Key-Header). */
const DEFAULT_KEY_HEADER = 'authorization';

const first = (v: string | undefined): string | undefined => (v === undefined ? undefined : v.split(',')[0]!.trim() || undefined);

/** Host without its port: `api.example.com:8443` and `[::1]:80` route as `api.example.com` and `[::1]`. */
function hostOf(raw: string | undefined): string {
  const h = (raw ?? '').trim();
  const bare = h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.replace(/:\d+$/, '');
  return normaliseDomain(bare);
}

function queryParam(query: string, name: string): string | undefined {
  for (const [k, v] of new URLSearchParams(query)) if (k === name) return v || undefined;
  return undefined;
}

/**
 * The original request, from what the gateway sent: `ownPath` and `ownQuery` are this request's
 * path after the route's prefix and its query (Envoy), `ownMethod` its method.
 */
export function forwardedRequest(headers: Headers, own: { path: string; query: string; method: string }): ForwardedRequest {
  const original = headers['x-original-uri'];
  const uri = original !== undefined ? headerText(original) : `${own.path}${own.query ? `?${own.query}` : ''}`;
  const q = uri.indexOf('?');
  const raw = (q < 0 ? uri : uri.slice(0, q)) || '/';
  const query = q < 0 ? '' : uri.slice(q + 1);
  const headerName = (headers['x-gw-key-header'] ?? DEFAULT_KEY_HEADER).trim().toLowerCase();
  const param = headers['x-gw-key-param']?.trim();
  let key =
    headers[headerName]
      ?.trim()
      .replace(/^Bearer\s+/i, '')
      .trim() || undefined;
  let keyFrom = `the ${headerName} header`;
  if (!key && param) {
    key = queryParam(query, param);
    keyFrom += ` or the ${param} query parameter`;
  }
  return {
    key,
    keyFrom,
    host: hostOf(first(headers['x-original-host']) ?? headers.host),
    path: decidedPath(raw.startsWith('/') ? raw : `/${raw}`),
    method: (headers['x-original-method'] ?? own.method).toUpperCase(),
    apiId: headers['x-gw-api-id']?.trim() || undefined,
    listenPath: headers['x-gw-listen-path'] === undefined ? undefined : normaliseListenPath(headers['x-gw-listen-path']),
    keyless: headers['x-gw-keyless']?.trim() === '1',
  };
}

/** The path `path` asks of the API listening on `listenPath` (`/` for the listen path itself), or undefined when it is not under it. */
export function pathUnder(path: string, listenPath: string): string | undefined {
  const [p, l] = [path.split('/').filter(Boolean), listenPath.split('/').filter(Boolean)];
  if (l.some((seg, i) => p[i] !== seg)) return undefined;
  const rest = `/${p.slice(l.length).join('/')}`;
  return rest === '/' || !path.endsWith('/') ? rest : `${rest}/`;
}

/**
 * The listen paths that could serve `path`, longest first (`/a/b/c`: `/a/b/c`, `/a/b`, `/a`, `/`),
 * each with the path the API sees after it. Listen paths match whole segments, as they are
 * normalised (shared/domain/listen-paths.ts).
 */
export function listenPathCandidates(path: string): Array<{ listenPath: string; rest: string }> {
  const segments = path.split('/').filter((s) => s !== '');
  const out: Array<{ listenPath: string; rest: string }> = [];
  for (let k = Math.min(segments.length, LISTEN_PATH_DEPTH); k >= 0; k--) {
    out.push({ listenPath: `/${segments.slice(0, k).join('/')}`, rest: `/${segments.slice(k).join('/')}` });
  }
  return out;
}
