/**
 * Which (custom domain, listen path) an API claims on the gateway, and the rules claims live
 * under (contract §13), pure. The gateway routes a request by its host and listen path, so two
 * APIs claiming the same pair would race for the same requests, and an organisation claiming a
 * path under another's would receive its traffic: a custom domain must be a host granted to the
 * API's organisation, and on the shared hosts no listen path nests with another organisation's.
 */
import { ListenPathTaken } from '../errors';
import type { ApiRecord } from './api-records';
import { isPlainObject } from '../lib/plain-object';
import { decidedPath } from './request-path';

export interface ListenClaim {
  /** Lower-case host, or '' when the API answers on every host. */
  domain: string;
  /** The normalised listen path (see normaliseListenPath). */
  path: string;
}

type Obj = Record<string, unknown>;
const child = (o: unknown, key: string): Obj => (isPlainObject(o) && isPlainObject(o[key]) ? (o[key] as Obj) : {});
const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/**
 * `/pets`, `pets/`, `//pets//`, `/pets/./` and `/%70ets` all route as `/pets`: the normal form
 * request paths are decided in (shared/domain/request-path.ts), then without a trailing slash,
 * since listen paths match whole segments; case kept (paths are case-sensitive). A listen path no
 * request path can spell (an encoded `/`, a `;`) keeps its segments as written: listenPathProblem
 * refuses it on write, and no request ever reaches it.
 */
export function normaliseListenPath(value: unknown): string {
  const raw = `/${text(value)}`;
  const decided = decidedPath(raw);
  const segments = (decided.ok ? decided.path : raw).split('/').filter((s) => s !== '');
  return `/${segments.join('/')}`;
}

/** The longest slug a default listen path takes from a title (contract §8). */
const LISTEN_SLUG_MAX = 64;

/**
 * The listen path an import takes when neither `listenPath` nor a template names one (contract
 * §8): `/<slug>/`, the slug being the title lower-cased, every run of characters other than a-z
 * and 0-9 turned into one `-`, trimmed of `-`, at most 64 characters, `api` when nothing is left.
 * Titles differ far more often than `/` does, so organisations that import without a listen
 * path do not take one path from each other.
 */
export function defaultListenPath(title: unknown): string {
  const runs = text(title)
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((r) => r !== '');
  let slug = runs.join('-').slice(0, LISTEN_SLUG_MAX);
  if (slug.endsWith('-')) slug = slug.slice(0, -1);
  return `/${slug || 'api'}/`;
}

/** Host names are case-insensitive and may be written with the root's trailing dot. */
export function normaliseDomain(value: unknown): string {
  return text(value).toLowerCase().replace(/\.$/, '');
}

/** Where a definition names its listen path and custom domain, as messages name the members. */
function membersOf(api: Pick<ApiRecord, 'kind' | 'classic' | 'oas'>) {
  if (api.kind === 'oas') {
    const gw = child(api.oas, 'x-gw-api-gateway');
    const server = child(gw, 'server');
    const domain = child(server, 'customDomain');
    return {
      internal: child(child(gw, 'info'), 'state').internal === true,
      listenPath: child(server, 'listenPath').value,
      domain: domain.enabled === true ? domain.name : undefined,
      at: { listenPath: 'x-gw-api-gateway.server.listenPath.value', domain: 'x-gw-api-gateway.server.customDomain.name' },
    };
  }
  const c = api.classic;
  return {
    internal: c.internal === true,
    listenPath: child(c, 'proxy').listen_path,
    domain: c.domain_disabled === true ? undefined : c.domain,
    at: { listenPath: 'proxy.listen_path', domain: 'domain' },
  };
}

/**
 * The claim of a stored API, or none: an internal API (the gateway reaches those only by their
 * id, never by listen path), and an API that names no listen path (`/` is the root, written out).
 * An inactive API keeps its claim, so switching it back on can never collide. OAS APIs read their
 * `x-gw-api-gateway` (a custom domain counts only when `enabled` is true, as the gateway reads it);
 * classic ones `proxy.listen_path`, `domain` and `domain_disabled`.
 */
export function listenClaimOf(api: Pick<ApiRecord, 'kind' | 'classic' | 'oas'>): ListenClaim | undefined {
  const m = membersOf(api);
  if (m.internal || text(m.listenPath) === '') return undefined;
  return { domain: normaliseDomain(m.domain), path: normaliseListenPath(m.listenPath) };
}

/** The members of a definition that claim, for messages: its listen path's and its custom domain's. */
export const claimMembersOf = (api: Pick<ApiRecord, 'kind' | 'classic' | 'oas'>) => membersOf(api).at;

/** The longest listen path claimed, in bytes of its normal form (docs/reference/limits.md). */
export const LISTEN_PATH_BYTES = 1000;
/** The deepest listen path a request is looked up under (docs/reference/limits.md): deeper ones would never be found. */
export const LISTEN_PATH_DEPTH = 24;

/**
 * Why a definition may not claim what it names (400), or undefined: a listen path that upstreams
 * read in different ways (contract §13); the root `/` on the shared hosts, where it would take
 * every other organisation's unclaimed paths (the root is for a domain granted to the
 * organisation); a listen path no request could be found under (too long, too deep).
 */
export function listenPathProblem(api: Pick<ApiRecord, 'kind' | 'classic' | 'oas'>): string | undefined {
  const m = membersOf(api);
  if (m.internal || text(m.listenPath) === '') return undefined;
  const decided = decidedPath(`/${text(m.listenPath)}`);
  if (!decided.ok) return `the listen path holds ${decided.reason}`;
  const path = normaliseListenPath(m.listenPath);
  if (normaliseDomain(m.domain) === '' && path === '/') {
    return 'a listen path on the shared hosts needs at least one segment; `/` alone is only for a custom domain granted to the organisation';
  }
  if (new TextEncoder().encode(path).length > LISTEN_PATH_BYTES) return `the listen path is longer than ${LISTEN_PATH_BYTES} bytes`;
  if (segmentsOf(path).length > LISTEN_PATH_DEPTH) return `the listen path has more than ${LISTEN_PATH_DEPTH} segments`;
  return undefined;
}

const segmentsOf = (path: string) => path.split('/').filter((s) => s !== '');

/** The first segment of a listen path (the shared hosts' claims are kept per first segment). */
export const firstSegment = (path: string): string => segmentsOf(path)[0] ?? '';

/** The listen paths `path` is under, shortest first, itself last (`/a/b`: `/a`, `/a/b`). */
export function pathAndAncestors(path: string): string[] {
  const segments = segmentsOf(path);
  return segments.map((_, i) => `/${segments.slice(0, i + 1).join('/')}`);
}

/**
 * Whether `a` and `b` nest, segment by segment: equal, or one a prefix of the other (`/a` and
 * `/a/b` do; `/a` and `/ab` do not).
 */
export function nests(a: string, b: string): boolean {
  const [x, y] = [segmentsOf(a), segmentsOf(b)];
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return false;
  return true;
}

export const sameClaim = (a: ListenClaim | undefined, b: ListenClaim | undefined): boolean => a?.domain === b?.domain && a?.path === b?.path;

/**
 * The 409 of a claim that is taken (contract §13): it says that the listen path is taken, never
 * by whom, not even whether by the caller's own organisation.
 */
export function claimTaken(c: ListenClaim, member?: string): ListenPathTaken {
  const message = `listen path ${c.path}${c.domain ? ` on domain ${c.domain}` : ''} is taken`;
  return new ListenPathTaken(message, member ? [{ path: member, message }] : undefined);
}

/**
 * The error a dashboard write whose query takes `listenPath` answers: a taken listen path names
 * the parameter that picks another one (contract §8); any other error as it is.
 */
export function withListenPathHint(e: unknown): unknown {
  if (!(e instanceof ListenPathTaken)) return e;
  const message = `${e.message}; pass the listenPath query parameter to serve this API on another path`;
  return new ListenPathTaken(message, [{ path: 'query.listenPath', message: e.message }]);
}

/** A claim as stored, with the API and organisation holding it. */
export interface HeldClaim extends ListenClaim {
  api_id: string;
  org_id: string;
}

/**
 * The claim that serves a request (contract §13), among the claims held on its listen-path
 * candidates (`candidates`, longest first), or none. Claims stored before the rules of §13 may
 * break them; such a claim is never chosen:
 * - on a host granted to an organisation, only that organisation's claims count: on the host
 *   first, then on the shared hosts;
 * - a claim on a host that is not granted (to its organisation) counts nowhere;
 * - on the shared hosts the root counts nowhere, and where claims of several organisations nest,
 *   the organisation of the outermost one holds the path: the claims nested under it by another
 *   organisation are the ones that broke the rule.
 * Then the longest listen path wins.
 */
export function servingClaim(
  req: { host: string; hostOrg: string | undefined },
  candidates: readonly string[],
  held: readonly HeldClaim[],
): HeldClaim | undefined {
  const rank = (c: HeldClaim) => candidates.indexOf(c.path);
  const longest = (cs: HeldClaim[]) => cs.sort((a, b) => rank(a) - rank(b))[0];
  const shared = held.filter((c) => c.domain === '' && c.path !== '/' && rank(c) >= 0);
  const outermost = shared.reduce<HeldClaim | undefined>((a, c) => (a === undefined || rank(c) > rank(a) ? c : a), undefined);
  const sharedServing = shared.filter((c) => c.org_id === outermost?.org_id);
  if (req.hostOrg === undefined) return longest(sharedServing);
  const onHost = held.filter((c) => c.domain === req.host && c.org_id === req.hostOrg && rank(c) >= 0);
  return longest(onHost) ?? (outermost?.org_id === req.hostOrg ? longest(sharedServing) : undefined);
}

/** A claim that breaks the rules of contract §13, and what breaking them means for its traffic. */
export interface ClaimViolation {
  claim: HeldClaim;
  rule: 'domain not granted' | 'root on the shared hosts' | 'nests with another organisation';
  /** For a nesting: the other organisation's claim it nests with. */
  with?: HeldClaim;
  /** Whether the external authorization still chooses it (the outermost of a nesting is). */
  served: boolean;
}

/**
 * Every claim among `claims` that breaks the rules of contract §13 (`grants`: domain ->
 * organisation): the report an operator reads for definitions stored before the rules.
 */
export function claimViolations(claims: readonly HeldClaim[], grants: ReadonlyMap<string, string>): ClaimViolation[] {
  const out: ClaimViolation[] = [];
  const shared = claims.filter((c) => c.domain === '');
  for (const c of claims) {
    if (c.domain !== '') {
      if (grants.get(c.domain) !== c.org_id) out.push({ claim: c, rule: 'domain not granted', served: false });
    } else if (c.path === '/') {
      out.push({ claim: c, rule: 'root on the shared hosts', served: false });
    } else {
      for (const other of shared) {
        if (other.org_id === c.org_id || other.path === '/' || !nests(c.path, other.path)) continue;
        const outer = segmentsOf(c.path).length < segmentsOf(other.path).length;
        out.push({ claim: c, rule: 'nests with another organisation', with: other, served: outer });
      }
    }
  }
  return out;
}
