/**
 * Which (custom domain, listen path) an API claims on the gateway (pure). The gateway routes a
 * request by its host and listen path, so two APIs claiming the same pair would race for the same
 * requests, whichever organisation they belong to: the store keeps one marker item per claim
 * (README, "Choices where the spec is silent").
 */
import { ListenPathTaken } from '../errors';
import type { ApiRecord } from './api-records';
import { isPlainObject } from './plain-object';

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
 * `/pets`, `pets/`, `//pets//` all route as `/pets`: one leading slash, no repeated or trailing
 * slashes, case kept (paths are case-sensitive). A blank listen path routes from the root, `/`.
 */
export function normaliseListenPath(value: unknown): string {
  const segments = text(value)
    .split('/')
    .filter((s) => s !== '');
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

/**
 * The claim of a stored API, or none for an internal API (the gateway reaches those only by
 * their id, never by listen path). An inactive API keeps its claim, so switching it back on can
 * never collide. OAS APIs read their `x-gw-api-gateway` (a custom domain counts only when
 * `enabled` is true, as the gateway reads it); classic ones `proxy.listen_path`, `domain` and
 * `domain_disabled`.
 */
export function listenClaimOf(api: Pick<ApiRecord, 'kind' | 'classic' | 'oas'>): ListenClaim | undefined {
  if (api.kind === 'oas') {
    const gw = child(api.oas, 'x-gw-api-gateway');
    if (child(child(gw, 'info'), 'state').internal === true) return undefined;
    const server = child(gw, 'server');
    const domain = child(server, 'customDomain');
    return {
      domain: domain.enabled === true ? normaliseDomain(domain.name) : '',
      path: normaliseListenPath(child(server, 'listenPath').value),
    };
  }
  const c = api.classic;
  if (c.internal === true) return undefined;
  return {
    domain: c.domain_disabled === true ? '' : normaliseDomain(c.domain),
    path: normaliseListenPath(child(c, 'proxy').listen_path),
  };
}

export const sameClaim = (a: ListenClaim | undefined, b: ListenClaim | undefined): boolean => a?.domain === b?.domain && a?.path === b?.path;

/** The claim as messages name it. */
export function describeClaim(c: ListenClaim): string {
  return `listen path ${c.path}${c.domain ? ` on domain ${c.domain}` : ''}`;
}

/**
 * The error a dashboard write whose query takes `listenPath` answers: a taken listen path names
 * the parameter that picks another one (contract §8); any other error as it is.
 */
export function withListenPathHint(e: unknown): unknown {
  return e instanceof ListenPathTaken ? new ListenPathTaken(`${e.message}; pass the listenPath query parameter to serve this API on another path`) : e;
}
