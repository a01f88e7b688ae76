/**
 * Requests whose only oddity is a member name or a nesting, put at every open member of a route's
 * body schema (records, members of unknown type, objects that keep members they do not name) over
 * the route's accepted seed request:
 * - names like a property every JavaScript object inherits (`constructor`, `__proto__`,
 *   `prototype`, `toString`, `hasOwnProperty`, `valueOf`): stored faithfully or refused with 400,
 *   never a 5xx (contract §3); `__proto__` is always refused by the body parser;
 * - names storage cannot hold (`""`, one over LIMITS.storedNameChars characters) and nesting to the
 *   deepest a route takes and one level past it: where a body is stored as attributes, refused with
 *   400 naming the member; elsewhere stored as sent (up to the parser's nesting).
 */
import * as z from 'zod';
import { LIMITS } from '../../../shared/limits';
import type { RouteDef } from '../../../shared/route-def';
import { concretePath, queryString, render, type BaseRequest } from './cases';
import { fieldsOf } from './zod-walk';

const PROTOTYPE_NAMES = ['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'] as const;

/**
 * Routes whose body wrapper is not stored: only its members are (an import keeps its policies,
 * not the members beside `Data`).
 */
const ROOT_NOT_STORED = ['POST /admin/policies/import'];

export interface MemberNameCase {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Where the members are (`body.meta_data`). */
  path: string;
  /** The members put there, each with a value unique to the case, so a table read can find it. */
  members: Record<string, unknown>;
  /** Whether the route keeps these members as sent (a table read must find them after a 2xx). */
  stored: boolean;
}

type Json = any;

/** `base` with `members` put into the object at `path` (made when absent); record keys ("k") and array items ("0") follow the base. */
function withMembersAt(base: Json, path: string[], members: Record<string, unknown>): { body: Json; path: string[] } | undefined {
  const root = structuredClone(base ?? {});
  let cur = root;
  const real: string[] = [];
  for (let i = 0; i < path.length; i++) {
    let k = path[i]!;
    if (cur === null || typeof cur !== 'object') return undefined;
    if (k === 'k' && !Array.isArray(cur)) k = Object.keys(cur)[0] ?? 'k';
    real.push(k);
    const wantsArray = path[i + 1] === '0';
    if (cur[k] === null || typeof cur[k] !== 'object' || Array.isArray(cur[k]) !== wantsArray) cur[k] = wantsArray ? [] : {};
    cur = cur[k];
  }
  if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
  // Data properties even for __proto__ (an assignment would set the prototype instead).
  for (const [name, value] of Object.entries(members)) {
    Object.defineProperty(cur, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return { body: root, path: real };
}

/**
 * Fresh ids for creates whose base names a client id or a unique value (a replay of the base
 * would be 409): ids, user names, e-mail addresses, and an API's id and listen path. `suffix` is
 * unique to the case across the file.
 */
function fresh(route: RouteDef, body: Json, suffix: string): Json {
  if (route.method !== 'POST' || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const s = `-${suffix}`;
  if (typeof body.id === 'string') body.id += s;
  if (typeof body.client_id === 'string') body.client_id += s;
  // An import replaces the policies it names: each case imports its own.
  if (Array.isArray(body.Data)) for (const p of body.Data) if (typeof p?.id === 'string' && p.id) p.id += s;
  if (typeof body.email_address === 'string') body.email_address = `${suffix}-${body.email_address}`;
  // A basic-auth user name is unique in its organisation; its password costs a slow hash.
  if (typeof body.basic_auth_data?.user === 'string') {
    body.basic_auth_data.user += s;
    delete body.basic_auth_data.password;
  }
  // An API's id and listen path are unique: classic (bare or in api_definition) and OAS (whole or bare).
  const listen = (path: string) => `${path.replace(/\/$/, '')}${s}/`;
  // (Only in a definition: elsewhere an api_id names an API that exists.)
  const classic = body.api_definition ?? body;
  if (typeof classic.proxy?.listen_path === 'string') {
    classic.proxy.listen_path = listen(classic.proxy.listen_path);
    if (typeof classic.api_id === 'string' && classic.api_id) classic.api_id += s;
  }
  const gw = body['x-gw-api-gateway'] ?? body;
  if (typeof gw.server?.listenPath?.value === 'string') {
    gw.server.listenPath.value = listen(gw.server.listenPath.value);
    if (typeof gw.info?.id === 'string' && gw.info.id) gw.info.id += s;
  }
  return body;
}

/**
 * Three requests per open member of the route's body: the five names JSON can carry as data, with
 * texts, then with objects whose own `name` is what the marshaller reads from `constructor.name`;
 * and `__proto__` alone, which the body parser refuses.
 */
export function memberNameCases(route: RouteDef, base: BaseRequest, tag: string): MemberNameCase[] {
  if (!route.body) return [];
  const key = `${route.method} ${route.path}`;
  const open = fieldsOf(route.body).filter((f) => f.leaf.kind === 'record' || f.leaf.kind === 'unknown' || f.leaf.loose);
  const url = concretePath(route.path, base.params) + queryString(base.query);
  const headers = { 'content-type': base.body?.contentType ?? (route.contentTypes ?? ['application/json'])[0]! };
  const data = PROTOTYPE_NAMES.filter((n) => n !== '__proto__');
  const out: MemberNameCase[] = [];
  for (const f of open) {
    const stored = !(f.path.length === 0 && ROOT_NOT_STORED.includes(key));
    const sets: Array<Record<string, unknown>> = [
      Object.fromEntries(data.map((n) => [n, `${tag}-${out.length}-${n}`])),
      Object.fromEntries(data.map((n) => [n, { name: 'Set', tag: `${tag}-${out.length + 1}-${n}` }])),
      { ['__proto__']: `${tag}-${out.length + 2}` },
    ];
    for (const members of sets) {
      const placed = withMembersAt(base.body?.value, f.path, members);
      if (!placed) continue;
      out.push({ url, headers, body: render(fresh(route, placed.body, `${tag}-${out.length}`)), path: ['body', ...placed.path].join('.'), members, stored });
    }
  }
  return out;
}

/**
 * How deep a route's body may nest, the body being the first level: what its storage holds where
 * the body is stored as attributes (the schema's `x-stored-depth`, as the document says it), else
 * the body parser's limit. `stored` tells which.
 */
export function depthOf(route: RouteDef): { depth: number; stored: boolean } {
  const meta = route.body ? (z.globalRegistry.get(route.body) as Record<string, unknown> | undefined) : undefined;
  const stored = meta?.['x-stored-depth'];
  return typeof stored === 'number' ? { depth: stored, stored: true } : { depth: LIMITS.jsonDepth, stored: false };
}

export interface StorageCase extends MemberNameCase {
  /**
   * What the case tries: a harmless member (the control), an empty name, a long name, nesting at the
   * limit, all three at once (where storage takes any: one request, one read of the table), or past it.
   */
  kind: 'control' | 'empty name' | 'long name' | 'deepest' | 'names and deepest' | 'too deep';
  /** What a 400 must name, or a path inside it (`body.meta_data.""`), for the cases a route refuses. */
  refusedAt: string;
}

/** The cases aimed at one open member: a control that differs from them only in the oddity, then them. */
export interface StorageGroup {
  path: string;
  control: StorageCase;
  cases: StorageCase[];
}

const segment = (s: string) => (s === '' ? '""' : s);

/** `levels` objects nested in one another, the innermost holding `tag`. */
function chain(levels: number, tag: string): Json {
  let v: Json = tag;
  for (let i = 0; i < levels; i++) v = { d: v };
  return v;
}

/**
 * Per open member: a control (a member `control` holding a text), then a member named `""`, one
 * whose name is a character longer than storage holds, and a member nesting to the route's deepest
 * level, then one level deeper. Where the open member is a record of typed values (access rights,
 * OAuth keys), only the names: its values cannot nest.
 */
export function storageCases(route: RouteDef, base: BaseRequest, tag: string): StorageGroup[] {
  if (!route.body) return [];
  const key = `${route.method} ${route.path}`;
  const open = fieldsOf(route.body).filter((f) => f.leaf.kind === 'record' || f.leaf.kind === 'unknown' || f.leaf.loose);
  const typedValues = new Set(
    fieldsOf(route.body)
      .filter((f) => f.path.at(-1) === 'k' && f.leaf.kind !== 'unknown')
      .map((f) => f.path.slice(0, -1).join('.')),
  );
  const url = concretePath(route.path, base.params) + queryString(base.query);
  const headers = { 'content-type': base.body?.contentType ?? (route.contentTypes ?? ['application/json'])[0]! };
  const { depth, stored: attributes } = depthOf(route);
  const long = 'n'.repeat(LIMITS.storedNameChars + 1);
  const out: StorageGroup[] = [];
  let n = 0;
  for (const f of open) {
    const stored = !(f.path.length === 0 && ROOT_NOT_STORED.includes(key));
    const typed = f.leaf.kind === 'record' && typedValues.has(f.path.join('.'));
    // The open object is at level path + 1; `deep` one below it holds the chain.
    const levels = typed ? 0 : depth - f.path.length - 1;
    const value = typed ? sampleValue(route, f.path) : undefined;
    const sets: Array<[StorageCase['kind'], Record<string, unknown>, (at: string[]) => string]> = [
      ['control', { control: value ?? `${tag}-${n}` }, () => ''],
      ['empty name', { '': value ?? `${tag}-${n + 1}` }, (at) => [...at, '""'].join('.')],
      // A 400 may show the name cut short: its first 64 characters name it.
      ['long name', { [long]: value ?? `${tag}-${n + 2}` }, (at) => [...at, long.slice(0, 64)].join('.')],
      ['deepest', { deep: chain(levels, `${tag}-${n + 3}`) }, () => ''],
      ['too deep', { deep: chain(levels + 1, `${tag}-${n + 4}`) }, (at) => [...at, 'deep', ...Array(levels).fill('d')].join('.')],
    ];
    n += sets.length;
    // Where the body is not stored as attributes, each of the three is stored as sent: one request.
    if (!attributes) {
      const together = Object.assign(
        {},
        ...sets.filter(([k]) => k === 'empty name' || k === 'long name' || (k === 'deepest' && levels >= 1)).map(([, m]) => m),
      );
      sets.splice(1, 3, ['names and deepest', together, () => '']);
    }
    const group: StorageCase[] = [];
    for (const [kind, members, refusedAt] of sets) {
      if (levels < 1 && (kind === 'deepest' || kind === 'too deep')) continue;
      const placed = withMembersAt(base.body?.value, f.path, members);
      if (!placed) continue;
      const at = ['body', ...placed.path.map(segment)];
      group.push({
        url,
        headers,
        body: render(fresh(route, placed.body, `${tag}-${n + group.length}`)),
        path: at.join('.'),
        members,
        stored,
        kind,
        refusedAt: refusedAt(at),
      });
    }
    const [control, ...cases] = group;
    if (control?.kind === 'control' && cases.length) out.push({ path: control.path, control, cases });
  }
  return out;
}

/** What the route's schema takes at a record's values, sampled (a text for OAuth keys). */
function sampleValue(route: RouteDef, path: string[]): unknown {
  const f = fieldsOf(route.body!).find((x) => x.path.join('.') === [...path, 'k'].join('.'));
  return f?.leaf.kind === 'string' ? 'x' : undefined;
}
