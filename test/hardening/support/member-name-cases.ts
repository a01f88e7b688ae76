/**
 * Requests whose only oddity is a member named like a property every JavaScript object inherits
 * (`constructor`, `__proto__`, `prototype`, `toString`, `hasOwnProperty`, `valueOf`), put at every
 * open member of a route's body schema (records, members of unknown type, objects that keep
 * members they do not name) over the route's accepted seed request. Such a name is stored
 * faithfully or refused with 400, never a 5xx (contract §3): `__proto__` is always refused by the
 * body parser; the others are data like any name.
 */
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

/** Fresh ids for creates whose base names a client id (a replay of the base would be 409). */
function fresh(route: RouteDef, body: Json, i: number): Json {
  if (route.method !== 'POST' || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  if (typeof body.id === 'string') body.id = `${body.id}-m${i}`;
  if (typeof body.email_address === 'string') body.email_address = `m${i}-${body.email_address}`;
  // A basic-auth user name is unique in its organisation; its password costs a slow hash.
  if (typeof body.basic_auth_data?.user === 'string') {
    body.basic_auth_data.user = `${body.basic_auth_data.user}-m${i}`;
    delete body.basic_auth_data.password;
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
      out.push({ url, headers, body: render(fresh(route, placed.body, out.length)), path: ['body', ...placed.path].join('.'), members, stored });
    }
  }
  return out;
}
