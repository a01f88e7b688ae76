/**
 * External authorization for nginx `auth_request` and Envoy `ext_authz`
 * (docs/using/serving-apis.md): the original request's API is found by its host and path, then the
 * decision is the check's own (session-check.ts: decide), with its single write and its events.
 * Only the answer's shape differs: a missing or unknown key is 401 (what gateways send a client to
 * authenticate), and everything the gateway passes on travels in headers.
 */
import { config } from '../config';
import { DENIAL_STATUS } from '../domain/quota';
import { forwardedRequest, listenPathCandidates, pathUnder } from '../domain/forwarded-request';
import { TtlCache } from '../lib/ttl-cache';
import { Refusal } from '../errors';
import { loadApi } from '../store/apis';
import { loadServingClaim } from '../store/listen-claims';
import { decide, rateHeadersOf, refusalMessage } from './session-check';

interface FoundApi {
  apiId: string;
  /** The path the API sees after its listen path, when it is known. */
  apiPath: string | undefined;
}

/**
 * Host and path to API, for CACHE_SECONDS: a hot path costs no read. Only found APIs are kept,
 * so a new API is served at once; a moved or deleted one may still be found here that long.
 */
const found = new TtlCache<FoundApi>(() => config().cacheMs);

/**
 * The API serving `host` and `path` by the rules of contract §13 (listen-paths.ts servingClaim):
 * the claims on the path's listen-path candidates, on the host and on the shared hosts, and whom
 * the host is granted to, in one read.
 */
async function apiAt(host: string, path: string): Promise<FoundApi | undefined> {
  const memo = `${host}\n${path}`;
  const hit = found.get(memo);
  if (hit) return hit;
  const candidates = listenPathCandidates(path);
  const best = await loadServingClaim(
    host,
    candidates.map((c) => c.listenPath),
  );
  if (!best) return undefined;
  const result = { apiId: best.api_id, apiPath: pathUnder(path, best.path) };
  found.set(memo, result);
  return result;
}

/**
 * The API the gateway names (X-Gw-Api-Id), with the path after its listen path when the gateway
 * names that too (X-Gw-Listen-Path); none when the decided path is not under it (a gateway's
 * location matching may differ from the decided path: `/books/../admin` is not /books').
 */
function pinnedApi(apiId: string, listenPath: string | undefined, path: string): FoundApi | undefined {
  if (listenPath === undefined) return { apiId, apiPath: undefined };
  const apiPath = pathUnder(path, listenPath);
  return apiPath === undefined ? undefined : { apiId, apiPath };
}

/** Whether an API is keyless and active, for CACHE_SECONDS: a gateway that routes it without a key is told the path only then. */
const keylessApis = new TtlCache<boolean>(() => config().cacheMs);

async function isKeyless(apiId: string): Promise<boolean> {
  const hit = keylessApis.get(apiId);
  if (hit !== undefined) return hit;
  const api = await loadApi(apiId);
  const keyless = api?.classic.use_keyless === true && api.classic.active !== false;
  keylessApis.set(apiId, keyless);
  return keyless;
}

/**
 * Allows the request the gateway forwards (`own`: this request's path after the route's prefix,
 * its query and method, which are the original's when Envoy calls), spending one unit of the key's quota, and answers the headers the
 * gateway passes upstream and to the client; or refuses it with a Refusal (401, 403, 404, 429).
 */
export async function authorizeForwarded(
  forwarded: Record<string, string | undefined>,
  own: { path: string; query: string; method: string },
): Promise<Record<string, string>> {
  const req = forwardedRequest(forwarded, own);
  if (!req.path.ok)
    throw new Refusal(400, `The request path holds ${req.path.reason}, which upstreams read in different ways`, { allowed: false, reason: 'AmbiguousPath' });
  const path = req.path.path;
  const api = req.apiId ? pinnedApi(req.apiId, req.listenPath, path) : await apiAt(req.host, path);
  if (!api) throw new Refusal(404, `No API listens on ${req.host || 'this host'} at ${path}`, { allowed: false, reason: 'UnknownApi' });
  // The path decided on travels with the answer, so the gateway sends the upstream that very path
  // (X-Gw-Api-Path: the same after the listen path, for an API that strips it).
  const paths = { 'X-Gw-Api-Id': api.apiId, 'X-Gw-Path': path, ...(api.apiPath ? { 'X-Gw-Api-Path': api.apiPath } : {}) };
  if (req.keyless && (await isKeyless(api.apiId))) return paths;
  if (!req.key) throw new Refusal(401, `No key in ${req.keyFrom}`, { allowed: false, reason: 'NoKey' }, { 'WWW-Authenticate': 'Bearer' });
  const result = await decide({ key: req.key, api_id: api.apiId, path, api_path: api.apiPath, method: req.method });
  const headers = { ...paths, ...rateHeadersOf(result) };
  if (!result.allowed) {
    const status = result.reason === 'UnknownKey' ? 401 : DENIAL_STATUS[result.reason];
    throw new Refusal(
      status,
      refusalMessage(result.reason),
      { allowed: false, reason: result.reason },
      {
        ...headers,
        ...(status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {}),
      },
    );
  }
  return { ...headers, 'X-Gw-Key-Hash': result.key_hash, 'X-Gw-Org-Id': result.org_id, 'X-Gw-Quota-Remaining': String(result.quota_remaining) };
}
