/**
 * A key's path rules for one API (contract §10): `access_rights[api].allowed_urls`, as the
 * reference gateway reads them. An entry's `url` is a regular expression searched in the request
 * path (unanchored, as the gateway does), its `methods` the methods it allows (none listed: any).
 * An access entry without rules allows every path. The path is tried as the client sent it and
 * as the API sees it after its listen path, so a rule may be written either way.
 *
 * RE2 semantics (re2js), as the reference gateway's Go regexp: a tenant's pattern runs in time
 * linear in the path (JavaScript's RegExp backtracks). All the rules of an entry run as one
 * automaton (an RE2 set), which answers every rule that matches in one pass over the path, so a
 * check's cost does not grow with the number of rules; the writes bound what that automaton may
 * hold (shared/schemas/allowed-urls.ts, docs/reference/limits.md). The engine is loaded only for
 * an entry with rules (`hasUrlRules`, then shared/lib/re2-engine.ts `loadRe2()`).
 */
import { isPlainObject } from '../lib/plain-object';
import { re2 } from '../lib/re2-engine';

/** The request a check is asked about, as far as path rules need it. */
export interface RequestLine {
  /** The path as the client sent it, and (when known) the path after the API's listen path. */
  paths: readonly string[];
  method: string | undefined;
}

interface Rule {
  url: string;
  /** Upper-cased; empty: any method. */
  methods: ReadonlySet<string>;
}

/** The entry's rules, or undefined when it has none (every path allowed). */
function rulesOf(entry: unknown): Rule[] | undefined {
  if (!hasUrlRules(entry)) return undefined;
  return (entry as { allowed_urls: unknown[] }).allowed_urls.filter(isPlainObject).map((u) => ({
    url: typeof u.url === 'string' ? u.url : '',
    methods: new Set(Array.isArray(u.methods) ? u.methods.filter((m): m is string => typeof m === 'string').map((m) => m.toUpperCase()) : []),
  }));
}

/** Whether the access entry has path rules: a check of it needs the RE2 engine loaded. */
export function hasUrlRules(entry: unknown): entry is { allowed_urls: unknown[] } {
  // Asked on every check: what rulesOf() would build is not built here.
  const urls = isPlainObject(entry) ? entry.allowed_urls : undefined;
  return Array.isArray(urls) && urls.length > 0;
}

/** One compiled automaton: the indexes (into `rules`) of its patterns that match a path. */
interface Part {
  matching(path: string): readonly number[];
  rules: readonly number[];
}

/**
 * An entry's rules compiled: the sets their valid patterns form (an invalid pattern matches
 * nothing, as it always has, so it can only refuse). One set unless the patterns are too large
 * together for one program, which only rules stored before the write limits can be.
 */
class RulesMatcher {
  private readonly parts: Part[];

  constructor(private readonly rules: readonly Rule[]) {
    this.parts = compileParts(
      rules.map((_, i) => i),
      rules,
    );
  }

  /** Whether a rule matches one of the paths and allows the method. */
  allows(request: RequestLine): boolean {
    const method = request.method?.toUpperCase();
    for (const path of request.paths) {
      for (const part of this.parts) {
        for (const k of part.matching(path)) {
          const methods = this.rules[part.rules[k]!]!.methods;
          if (methods.size === 0 || (method !== undefined && methods.has(method))) return true;
        }
      }
    }
    return false;
  }
}

/** Sets of the rules' valid patterns; a set whose program is too large is split in halves. */
function compileParts(indexes: readonly number[], rules: readonly Rule[]): Part[] {
  const { RE2JS, RE2Set } = re2();
  const set = new RE2Set();
  const kept: number[] = [];
  for (const i of indexes) {
    try {
      set.add(rules[i]!.url);
      kept.push(i);
    } catch {
      // Not RE2 syntax: matches nothing.
    }
  }
  try {
    set.compile();
    return [{ matching: (path) => set.match(path), rules: kept }];
  } catch {
    // "Expression too large": each pattern parsed alone, so halves fit, down to one pattern,
    // which compiles alone as a plain expression, or (as any pattern that does not compile)
    // matches nothing.
    if (kept.length === 1) {
      try {
        const re = RE2JS.compile(rules[kept[0]!]!.url);
        return [{ matching: (path) => (re.test(path) ? [0] : []), rules: kept }];
      } catch {
        return [];
      }
    }
    const half = Math.ceil(kept.length / 2);
    return [...compileParts(kept.slice(0, half), rules), ...compileParts(kept.slice(half), rules)];
  }
}

/**
 * Compiled rules per access entry object. An entry lives as long as the cached session holding it
 * (shared/services/session-cache.ts), so its automaton is built once per session read and goes
 * with it; nothing one key's rules do can evict or rebuild another key's.
 */
const matchers = new WeakMap<object, RulesMatcher>();

function matcherOf(entry: object): RulesMatcher | undefined {
  let matcher = matchers.get(entry);
  if (!matcher) {
    const rules = rulesOf(entry);
    if (!rules) return undefined;
    matcher = new RulesMatcher(rules);
    matchers.set(entry, matcher);
  }
  return matcher;
}

/**
 * Whether the key's access entry lets this request through. With rules and no path to test
 * (a check that sent none), nothing can match: refused, never silently allowed.
 */
export function urlAllowed(entry: unknown, request: RequestLine | undefined): boolean {
  if (!isPlainObject(entry)) return true;
  const matcher = matcherOf(entry);
  if (!matcher) return true;
  if (!request || request.paths.length === 0) return false;
  return matcher.allows(request);
}
