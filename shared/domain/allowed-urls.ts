/**
 * A key's path rules for one API (contract §10): `access_rights[api].allowed_urls`, as the
 * reference gateway reads them. An entry's `url` is a regular expression searched in the request
 * path (unanchored, as the gateway does), its `methods` the methods it allows (none listed: any).
 * An access entry without rules allows every path. The path is tried as the client sent it and
 * as the API sees it after its listen path, so a rule may be written either way.
 */
import { RE2JS } from 're2js';
import { isPlainObject } from './plain-object';

/** The request a check is asked about, as far as path rules need it. */
export interface RequestLine {
  /** The path as the client sent it, and (when known) the path after the API's listen path. */
  paths: readonly string[];
  method: string | undefined;
}

const compiled = new Map<string, RE2JS | null>();

/**
 * A rule's pattern, compiled once per process; an invalid one matches nothing (it can only refuse).
 * RE2 semantics (re2js), as the reference gateway's Go regexp: a tenant's pattern runs in time
 * linear in the path, so no rule can stall the check (JavaScript's RegExp backtracks).
 */
function patternOf(url: string): RE2JS | null {
  let re = compiled.get(url);
  if (re === undefined) {
    try {
      re = RE2JS.compile(url);
    } catch {
      re = null;
    }
    if (compiled.size >= 1000) compiled.clear();
    compiled.set(url, re);
  }
  return re;
}

/** The entry's rules, or undefined when it has none (every path allowed). */
function rulesOf(entry: unknown): Array<{ url: string; methods: string[] }> | undefined {
  const urls = isPlainObject(entry) ? entry.allowed_urls : undefined;
  if (!Array.isArray(urls) || urls.length === 0) return undefined;
  return urls.filter(isPlainObject).map((u) => ({
    url: typeof u.url === 'string' ? u.url : '',
    methods: Array.isArray(u.methods) ? u.methods.filter((m): m is string => typeof m === 'string') : [],
  }));
}

/**
 * Whether the key's access entry lets this request through. With rules and no path to test
 * (a check that sent none), nothing can match: refused, never silently allowed.
 */
export function urlAllowed(entry: unknown, request: RequestLine | undefined): boolean {
  const rules = rulesOf(entry);
  if (!rules) return true;
  if (!request || request.paths.length === 0) return false;
  const method = request.method?.toUpperCase();
  return rules.some((rule) => {
    const re = patternOf(rule.url);
    if (!re || !request.paths.some((p) => re.matcher(p).find())) return false;
    return rule.methods.length === 0 || (method !== undefined && rule.methods.some((m) => m.toUpperCase() === method));
  });
}
