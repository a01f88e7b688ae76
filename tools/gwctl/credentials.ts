/**
 * Credentials in the files: where they are is the service's table of credential-bearing members,
 * as its OpenAPI document publishes it (`x-credential-members` of generated/openapi.json). What
 * gwctl reads from the service is masked there before anything else sees it (a plan, a digest, a
 * dump); a dump writes `${env:NAME}` there; validate refuses a reference anywhere else, a clear
 * value there and gwctl's own credentials, so sync expands references only where the service
 * keeps credentials.
 */
import { readFileSync } from 'node:fs';
import { OWN_CREDENTIALS } from './client';
import { envName, envRef, isObject, type ConfigObject, type Json, type JsonObject, type Kind } from './model';

type Holds = 'value' | 'url' | 'headers' | 'document';
interface Rule {
  at: string;
  holds: Holds;
  values?: 'all';
  document?: string;
}
interface Table {
  mask: string;
  names: Record<string, string>;
  kinds: Record<string, Rule[]>;
}

let table: (Table & { re: Record<string, RegExp> }) | undefined;
function tableOf() {
  if (!table) {
    const doc = JSON.parse(readFileSync(new URL('./generated/openapi.json', import.meta.url), 'utf8')) as { 'x-credential-members': Table };
    const t = doc['x-credential-members'];
    table = { ...t, re: Object.fromEntries(Object.entries(t.names).map(([k, re]) => [k, new RegExp(re, 'i')])) };
  }
  return table;
}

/** What a credential reads as in what gwctl shows and compares (the service's mask). */
const mask = () => tableOf().mask;

/** The table's entry for a file's spec. */
function entryOf(o: ConfigObject): string {
  switch (o.kind) {
    case 'api':
      return isObject(o.spec['x-gw-api-gateway']) ? 'api-oas' : 'api-classic';
    case 'hook':
      return 'webhook';
    case 'template':
      return 'template';
    case 'policy':
      return 'policy';
    case 'oauth-client':
      return 'oauth_client';
  }
}

type Path = Array<string | number>;
export interface Spot {
  /** Inside the spec. */
  path: Path;
  /** A range of the string; absent: all of it. */
  range?: [number, number];
  /** The header, `user`, `password` or the query parameter the credential is. */
  label: string;
  holds: Holds;
}

const named = (which: string, name: string) => tableOf().re[which]?.test(name) === true;
const URL_HEAD = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const REFERENCE = /\$\{[a-z]+:[^}]*\}/g;

/** The table's `url`: userinfo (user, password) and credential-named query parameters, as ranges of the text. */
function urlRanges(text: string): Array<{ range: [number, number]; label: string }> {
  const head = URL_HEAD.exec(text);
  if (!head) return [];
  const out: Array<{ range: [number, number]; label: string }> = [];
  const push = (start: number, end: number, label: string) => end > start && out.push({ range: [start, end], label });
  const start = head[0].length;
  const rest = text.slice(start).search(/[/?#]/);
  const authorityEnd = rest < 0 ? text.length : start + rest;
  const at = text.lastIndexOf('@', authorityEnd - 1);
  if (at >= start) {
    const colon = text
      .slice(start, at)
      .replace(REFERENCE, (r) => '_'.repeat(r.length))
      .indexOf(':');
    if (colon < 0) push(start, at, 'user');
    else {
      push(start, start + colon, 'user');
      push(start + colon + 1, at, 'password');
    }
  }
  const hash = text.indexOf('#', authorityEnd);
  const query = text.indexOf('?', authorityEnd);
  if (query >= 0 && (hash < 0 || query < hash)) {
    let i = query + 1;
    for (const part of text.slice(query + 1, hash < 0 ? text.length : hash).split('&')) {
      const eq = part.indexOf('=');
      if (eq > 0) {
        let name = part.slice(0, eq);
        try {
          name = decodeURIComponent(name.replace(/\+/g, ' '));
        } catch {
          // Kept as written.
        }
        if (named('field', name)) push(i + eq + 1, i + part.length, name);
      }
      i += part.length + 1;
    }
  }
  return out;
}

function reach(v: Json | undefined, segs: string[], i: number, path: Path, visit: (v: Json | undefined, path: Path) => void): void {
  if (i === segs.length) return visit(v, [...path]);
  const s = segs[i]!;
  const down = (child: Json | undefined, key: string | number, next: number) => {
    path.push(key);
    reach(child, segs, next, path, visit);
    path.pop();
  };
  if (s === '**') {
    reach(v, segs, i + 1, path, visit);
    if (Array.isArray(v)) v.forEach((c, k) => down(c, k, i));
    else if (isObject(v)) for (const [k, c] of Object.entries(v)) down(c, k, i);
  } else if (s === '[]') {
    if (Array.isArray(v)) v.forEach((c, k) => down(c, k, i + 1));
  } else if (isObject(v)) {
    for (const [k, c] of Object.entries(v)) if (s === '*' || (s.startsWith('~') ? named(s.slice(1), k) : k === s)) down(c, k, i + 1);
  }
}

function spotsOfRule(rule: Rule, v: Json | undefined, path: Path, out: Spot[]): void {
  reach(v, rule.at.split('.'), 0, path, (value, at) => {
    if (rule.holds === 'value' && typeof value === 'string' && value !== '') out.push({ path: at, label: String(at[at.length - 1]), holds: 'value' });
    if (rule.holds === 'url' && typeof value === 'string') for (const r of urlRanges(value)) out.push({ path: at, ...r, holds: 'url' });
    if (rule.holds === 'headers') {
      const counts = (name: string, h: string) => (h !== '' || rule.values === 'all') && (rule.values === 'all' || named('field', name));
      if (isObject(value)) {
        for (const [name, h] of Object.entries(value))
          if (typeof h === 'string' && counts(name, h)) out.push({ path: [...at, name], label: name, holds: 'headers' });
      } else if (Array.isArray(value)) {
        value.forEach((h, k) => {
          const name = isObject(h) ? (typeof h.name === 'string' ? h.name : typeof h.key === 'string' ? h.key : undefined) : undefined;
          if (isObject(h) && name !== undefined && typeof h.value === 'string' && counts(name, h.value))
            out.push({ path: [...at, k, 'value'], label: name, holds: 'headers' });
        });
      }
    }
    if (rule.holds === 'document') for (const r of tableOf().kinds[rule.document!] ?? []) spotsOfRule(r, value, at, out);
  });
}

const pathKey = (p: Path) => JSON.stringify(p);

/** Every credential a file's spec holds, each once (a whole string once, however many rules reach it). */
export function credentialSpots(o: ConfigObject): Spot[] {
  const found: Spot[] = [];
  const kinds = tableOf().kinds;
  for (const r of [...(kinds['*'] ?? []), ...(kinds[entryOf(o)] ?? [])]) spotsOfRule(r, o.spec, [], found);
  const whole = new Set(found.filter((s) => !s.range).map((s) => pathKey(s.path)));
  const seen = new Set<string>();
  return found.filter((s) => {
    const k = `${pathKey(s.path)}${s.range ? `@${s.range.join('-')}` : ''}`;
    if (seen.has(k) || (s.range && whole.has(pathKey(s.path)))) return false;
    seen.add(k);
    return true;
  });
}

const textAt = (spec: JsonObject, s: Spot): string => {
  const text = s.path.reduce<Json | undefined>((v, k) => (v as Record<string | number, Json>)?.[k], spec) as string;
  return s.range ? text.slice(s.range[0], s.range[1]) : text;
};

/** A copy of the object with each spot's text replaced by `by`'s answer for it. */
function replaced(o: ConfigObject, spots: Spot[], by: (s: Spot, text: string) => string): ConfigObject {
  const copy = structuredClone(o);
  const groups = new Map<string, Spot[]>();
  for (const s of spots) groups.set(pathKey(s.path), [...(groups.get(pathKey(s.path)) ?? []), s]);
  for (const group of groups.values()) {
    const path = group[0]!.path;
    const parent = path.slice(0, -1).reduce<Json>((v, k) => (v as Record<string | number, Json>)[k]!, copy.spec) as Record<string | number, Json>;
    const key = path[path.length - 1]!;
    const text = parent[key] as string;
    const whole = group.find((s) => !s.range);
    parent[key] = whole
      ? by(whole, text)
      : group
          .sort((a, b) => b.range![0] - a.range![0])
          .reduce((t, s) => t.slice(0, s.range![0]) + by(s, t.slice(s.range![0], s.range![1])) + t.slice(s.range![1]), text);
  }
  return copy;
}

/** The object as gwctl keeps what it read: every credential masked (the service masks a hook's already). */
export const masked = (o: ConfigObject): ConfigObject => replaced(o, credentialSpots(o), () => mask());

/** The key that pairs a spot of what was read with the same spot of a file: its path, its label and which one of that label it is. */
function keyed(spots: Spot[]): Map<string, Spot> {
  const nth = new Map<string, number>();
  const out = new Map<string, Spot>();
  for (const s of spots) {
    const base = `${pathKey(s.path)}#${s.label}`;
    const n = nth.get(base) ?? 0;
    nth.set(base, n + 1);
    out.set(`${base}#${n}`, s);
  }
  return out;
}

const ONE_REF = /^\$\{env:[A-Za-z_][A-Za-z0-9_]*\}$/;

/**
 * What was read, comparable with a file: a credential the file writes as a reference in the same
 * place takes the reference (the service never shows the value to compare); the rest stay masked.
 */
export function withFileReferences(live: ConfigObject, file: ConfigObject): ConfigObject {
  const wanted = keyed(credentialSpots(file));
  const refs = new Map<Spot, string>();
  for (const [k, s] of keyed(credentialSpots(live))) {
    const w = wanted.get(k);
    const text = w && textAt(file.spec, w);
    if (text !== undefined && ONE_REF.test(text)) refs.set(s, text);
  }
  return replaced(live, [...refs.keys()], (s) => refs.get(s)!);
}

const KIND_PREFIX: Record<Kind, string> = { hook: 'GW_HOOK', template: 'GW_TEMPLATE', api: 'GW_API', policy: 'GW_POLICY', 'oauth-client': 'GW_OAUTH_CLIENT' };

/** The variable a dump names for a spot: a header by its name (and operation), a URL's part by its member, a value by its member. */
function hintOf(s: Spot): string[] {
  const members = s.path.filter((p): p is string => typeof p === 'string');
  if (s.holds === 'headers') {
    const op = s.path.indexOf('operations');
    return [...(op >= 0 && typeof s.path[op + 1] === 'string' ? [s.path[op + 1] as string] : []), s.label];
  }
  return [...members.slice(-2), ...(s.holds === 'url' ? [s.label] : [])];
}

/** The object as a dump writes it: each credential a `${env:NAME}` named after the object and the place. */
export function withDumpReferences(o: ConfigObject, key: string): ConfigObject {
  const spots = credentialSpots(o).sort((a, b) => pathKey(a.path).localeCompare(pathKey(b.path)) || (a.range?.[0] ?? 0) - (b.range?.[0] ?? 0));
  const taken = new Set<string>();
  const names = new Map<Spot, string>();
  for (const s of spots) {
    const base = envName(KIND_PREFIX[o.kind], key, ...hintOf(s));
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
    taken.add(name);
    names.set(s, name);
  }
  return replaced(o, spots, (s) => envRef(names.get(s)!));
}

/** A problem of a file's references or credentials, at a path inside the file. */
export interface CredentialProblem {
  path: string;
  message: string;
}

const ENV_REFS = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;
const shownPath = (p: Path) => p.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('');

/**
 * Where a file's references and credentials break the rule: a reference outside a credential (it
 * would be stored where every reader sees it), a reference to gwctl's own credential, a
 * credential in clear (the folder is meant for Git).
 */
export function credentialProblems(o: ConfigObject): CredentialProblem[] {
  const problems: CredentialProblem[] = [];
  const spots = credentialSpots(o);
  const byPath = new Map<string, Spot[]>();
  for (const s of spots) byPath.set(pathKey(s.path), [...(byPath.get(pathKey(s.path)) ?? []), s]);
  const own = new Set<string>(OWN_CREDENTIALS);
  const walk = (v: Json | undefined, path: Path, inSpec: boolean) => {
    if (typeof v === 'string') {
      for (const m of v.matchAll(ENV_REFS)) {
        const where = `${inSpec ? 'spec' : ''}${shownPath(path)}`.replace(/^\./, '');
        if (own.has(m[1]!)) {
          problems.push({ path: where, message: `\${env:${m[1]}} is gwctl's own credential: no file may name it` });
          continue;
        }
        const [from, to] = [m.index!, m.index! + m[0].length];
        const inside = inSpec && (byPath.get(pathKey(path)) ?? []).some((s) => !s.range || (s.range[0] <= from && to <= s.range[1]));
        if (!inside)
          problems.push({
            path: where,
            message: `\${env:${m[1]}}: a reference is expanded only where a credential is (docs/using/configuration-as-code.md), and this is not one`,
          });
      }
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i], inSpec));
    else if (isObject(v)) for (const [k, x] of Object.entries(v)) walk(x, [...path, k], inSpec);
  };
  for (const [k, v] of Object.entries(o)) walk(v as Json, k === 'spec' ? [] : [k], k === 'spec');
  for (const s of spots) {
    if (ONE_REF.test(textAt(o.spec, s))) continue;
    const what = s.holds === 'url' ? `the ${s.label} of this URL` : s.holds === 'headers' ? `the value of the header ${s.label}` : 'this value';
    problems.push({ path: `spec${shownPath(s.path)}`, message: `${what} is a credential: write it as \${env:NAME}, never in clear` });
  }
  return problems;
}
