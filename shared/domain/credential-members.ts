/**
 * Which members of each kind of object hold credentials: the one table the audit trail masks by,
 * the reads that mask (webhooks) mask by, and gwctl reads from the OpenAPI document
 * (`x-credential-members`) to write `${env:NAME}` in their place and to expand references there
 * only. Pure: no I/O.
 *
 * A rule's `at` is a path of member names from the object's root, joined by dots: `*` is any one
 * member, `**` any depth (none included), `[]` each element of an array, `~name` any member whose
 * name matches CREDENTIAL_NAMES[name] (ignoring case). What it `holds`:
 * - `value`: a string that is a credential as a whole;
 * - `url`: a string that, when it is an absolute URL (`scheme://`), holds credentials in its
 *   userinfo (user and password) and in the values of its query parameters named like credentials;
 * - `headers`: a map of header name to value, or a list of `{name | key, value}`, whose values of
 *   headers named like credentials are credentials (every value with `values: 'all'`);
 * - `document`: the rules of another entry apply to the value there.
 * The rules of `*` apply to every kind, at any depth.
 */

import { HEADER_VALUE_MASK } from '../schemas/webhook-headers';

/**
 * What a credential reads as wherever it is shown (the mask webhook header values read as): the
 * same whatever the value, so masked values compare stably.
 */
export const CREDENTIAL_MASK = HEADER_VALUE_MASK;

/** Name patterns (regular expressions, ignoring case) the rules refer to as `~name`. */
const NAME_RES = {
  /** A member whose string value is a credential; `key_hash` names a key in the audit trail and is kept. */
  member: /(?:password|passwd|secret|private_?key|api_?key|access_?key|credentials?|hmac_string|(?<!^key_)hash|sealed|token)$/i,
  /** A member holding headers. */
  headers: /header/i,
  /** A header or URL query parameter whose value is a credential. */
  field: /auth|token|key|secret|cookie|session|sig|passw|pwd|credential/i,
} as const;

/** The same patterns as text (ignoring case), as the published document carries them for gwctl. */
export const CREDENTIAL_NAMES = Object.fromEntries(Object.entries(NAME_RES).map(([k, re]) => [k, re.source])) as Record<keyof typeof NAME_RES, string>;

export interface CredentialRule {
  at: string;
  holds: 'value' | 'url' | 'headers' | 'document';
  /** headers: every value, not only those of headers named like credentials. */
  values?: 'all';
  /** document: the entry whose rules apply there. */
  document?: CredentialKind;
}

/** The kinds of object (the audit trail's object types) and the two forms of an API definition. */
export type CredentialKind =
  | 'organisation'
  | 'user'
  | 'api'
  | 'api-oas'
  | 'api-classic'
  | 'key'
  | 'org_key'
  | 'policy'
  | 'webhook'
  | 'template'
  | 'oauth_client'
  | 'domain'
  | 'portal'
  | 'catalogue_entry'
  | 'developer'
  | 'key_request';

const GW = 'x-gw-api-gateway';

/**
 * The table. Rules of `*` already reach some members a kind lists too: those are listed for the
 * reader, who looks a kind up here.
 */
export const CREDENTIAL_MEMBERS: Readonly<Record<CredentialKind | '*', readonly CredentialRule[]>> = {
  '*': [
    { at: '**.~member', holds: 'value' },
    { at: '**.~headers', holds: 'headers' },
    { at: '**', holds: 'url' },
  ],
  'api-oas': [
    { at: `${GW}.upstream.url`, holds: 'url' },
    { at: `${GW}.upstream.authentication.basicAuth.password`, holds: 'value' },
    { at: `${GW}.middleware.global.transformRequestHeaders.add`, holds: 'headers' },
    { at: `${GW}.middleware.global.transformResponseHeaders.add`, holds: 'headers' },
    { at: `${GW}.middleware.operations.*.transformRequestHeaders.add`, holds: 'headers' },
    { at: `${GW}.middleware.operations.*.transformResponseHeaders.add`, holds: 'headers' },
    { at: `${GW}.server.eventHandlers.[].url`, holds: 'url' },
    { at: `${GW}.server.eventHandlers.[].headers`, holds: 'headers', values: 'all' },
  ],
  'api-classic': [
    { at: 'proxy.target_url', holds: 'url' },
    { at: 'proxy.target_list.[]', holds: 'url' },
    { at: 'version_data.versions.*.global_headers', holds: 'headers' },
    { at: 'version_data.versions.*.extended_paths.transform_headers.[].add_headers', holds: 'headers' },
    { at: 'event_handlers.events.*.[].handler_meta.target_path', holds: 'url' },
    { at: 'event_handlers.events.*.[].handler_meta.header_map', holds: 'headers', values: 'all' },
    { at: 'auth.signature.secret', holds: 'value' },
    { at: 'notifications.shared_secret', holds: 'value' },
    { at: 'request_signing.secret', holds: 'value' },
    { at: 'external_oauth.providers.[].introspection.client_secret', holds: 'value' },
  ],
  // As stored: the OAS document and the classic form the service keeps beside it.
  api: [
    { at: 'definition.oas', holds: 'document', document: 'api-oas' },
    { at: 'definition.classic', holds: 'document', document: 'api-classic' },
  ],
  template: [{ at: 'data', holds: 'document', document: 'api-oas' }],
  webhook: [
    { at: 'target_path', holds: 'url' },
    { at: 'header_map', holds: 'headers', values: 'all' },
    { at: 'signing_secret_sealed', holds: 'value' },
  ],
  key: [
    { at: 'session.basic_auth_data.password', holds: 'value' },
    { at: 'session.hmac_string', holds: 'value' },
  ],
  org_key: [{ at: 'session.hmac_string', holds: 'value' }],
  oauth_client: [
    { at: 'secret_hash', holds: 'value' },
    { at: 'redirect_uri', holds: 'url' },
  ],
  user: [
    { at: 'password_hash', holds: 'value' },
    { at: 'access_key_hash', holds: 'value' },
  ],
  policy: [],
  organisation: [],
  // A domain grant holds its host name, its organisation and when: no credential.
  domain: [],
  portal: [],
  catalogue_entry: [],
  developer: [{ at: 'password_hash', holds: 'value' }],
  // A request names its key by hash only: the clear key is never stored.
  key_request: [],
};

type Json = unknown;
type Path = Array<string | number>;

/** One credential: the string at `path`, or the `range` of it; `label` names it (a header, `user`, `password`, a query parameter). */
export interface CredentialSpot {
  path: Path;
  range?: [number, number];
  label: string;
}

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

const nameMatches = (which: string, name: string) => NAME_RES[which as keyof typeof CREDENTIAL_NAMES]?.test(name) === true;

const URL_HEAD = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
/**
 * `text` with each `${kind:NAME}` reference gwctl writes (`${env:NAME}`, `${hook:NAME}`) blanked
 * out to its length: opaque inside a URL, so its colon splits nothing. One pass, no regex.
 */
function blankReferences(text: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const open = text.indexOf('${', i);
    const close = open < 0 ? -1 : text.indexOf('}', open);
    if (open < 0 || close < 0) return out + text.slice(i);
    const inner = text.slice(open + 2, close);
    const colon = inner.indexOf(':');
    const isReference = colon > 0 && /^[a-z]+$/.test(inner.slice(0, colon));
    out += text.slice(i, open) + (isReference ? '_'.repeat(close + 1 - open) : text.slice(open, close + 1));
    i = close + 1;
  }
}

/**
 * The credentials inside a URL's text: its userinfo (user, and password after the first colon)
 * and the values of query parameters named like credentials, as ranges of the text. Read
 * textually, so the rest of the text is kept byte for byte and references in it stay whole.
 */
export function urlCredentialRanges(text: string): Array<{ range: [number, number]; label: string }> {
  const head = URL_HEAD.exec(text);
  if (!head) return [];
  const out: Array<{ range: [number, number]; label: string }> = [];
  const push = (start: number, end: number, label: string) => {
    if (end > start) out.push({ range: [start, end], label });
  };
  const start = head[0].length;
  const rest = text.slice(start).search(/[/?#]/);
  const authorityEnd = rest < 0 ? text.length : start + rest;
  const at = text.lastIndexOf('@', authorityEnd - 1);
  if (at >= start) {
    const info = text.slice(start, at);
    // A colon inside a reference is not the userinfo's.
    const opaque = blankReferences(info);
    const colon = opaque.indexOf(':');
    if (colon < 0) push(start, at, 'user');
    else {
      push(start, start + colon, 'user');
      push(start + colon + 1, at, 'password');
    }
  }
  const hash = text.indexOf('#', authorityEnd);
  const query = text.indexOf('?', authorityEnd);
  if (query >= 0 && (hash < 0 || query < hash)) {
    const end = hash < 0 ? text.length : hash;
    let i = query + 1;
    for (const part of text.slice(query + 1, end).split('&')) {
      const eq = part.indexOf('=');
      if (eq > 0) {
        const name = safeDecode(part.slice(0, eq));
        if (nameMatches('field', name)) push(i + eq + 1, i + part.length, name);
      }
      i += part.length + 1;
    }
  }
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** Calls `visit` with each value the path pattern reaches, and its path. */
function reach(v: Json, segs: readonly string[], i: number, path: Path, visit: (v: Json, path: Path) => void): void {
  if (i === segs.length) {
    visit(v, [...path]);
    return;
  }
  const s = segs[i]!;
  const children = (each: (child: Json, key: string | number) => void) => {
    if (Array.isArray(v)) v.forEach((c, k) => each(c, k));
    else if (isPlain(v)) for (const [k, c] of Object.entries(v)) each(c, k);
  };
  const down = (child: Json, key: string | number, next: number) => {
    path.push(key);
    reach(child, segs, next, path, visit);
    path.pop();
  };
  if (s === '**') {
    reach(v, segs, i + 1, path, visit);
    children((c, k) => down(c, k, i));
  } else if (s === '[]') {
    if (Array.isArray(v)) v.forEach((c, k) => down(c, k, i + 1));
  } else if (s === '*') {
    if (isPlain(v)) for (const [k, c] of Object.entries(v)) down(c, k, i + 1);
  } else if (s.startsWith('~')) {
    if (isPlain(v)) for (const [k, c] of Object.entries(v)) if (nameMatches(s.slice(1), k)) down(c, k, i + 1);
  } else if (isPlain(v) && Object.hasOwn(v, s)) down(v[s], s, i + 1);
}

function spotsOfRule(rule: CredentialRule, v: Json, path: Path, out: CredentialSpot[]): void {
  reach(v, rule.at.split('.'), 0, path, (value, at) => {
    switch (rule.holds) {
      case 'value':
        if (typeof value === 'string' && value !== '') out.push({ path: at, label: String(at[at.length - 1]) });
        return;
      case 'url':
        if (typeof value === 'string') for (const r of urlCredentialRanges(value)) out.push({ path: at, ...r });
        return;
      case 'headers': {
        const counts = (name: string) => rule.values === 'all' || nameMatches('field', name);
        // Where every value is write-only, an empty one reads masked too (a read says nothing of a value).
        const filled = (h: string) => h !== '' || rule.values === 'all';
        if (isPlain(value)) {
          for (const [name, h] of Object.entries(value)) if (typeof h === 'string' && filled(h) && counts(name)) out.push({ path: [...at, name], label: name });
        } else if (Array.isArray(value)) {
          value.forEach((h, k) => {
            if (!isPlain(h) || typeof h.value !== 'string' || !filled(h.value)) return;
            const name = typeof h.name === 'string' ? h.name : typeof h.key === 'string' ? h.key : undefined;
            if (name !== undefined && counts(name)) out.push({ path: [...at, k, 'value'], label: name });
          });
        }
        return;
      }
      case 'document':
        for (const r of CREDENTIAL_MEMBERS[rule.document!]) spotsOfRule(r, value, at, out);
    }
  });
}

const pathKey = (p: Path) => JSON.stringify(p);

/**
 * Every credential `value` (an object of `kind`) holds, each once: a string that is a credential
 * as a whole is one spot, however many rules reach it. In the order the object holds them.
 */
export function credentialSpots(kind: CredentialKind, value: Json): CredentialSpot[] {
  const found: CredentialSpot[] = [];
  for (const r of [...CREDENTIAL_MEMBERS['*'], ...CREDENTIAL_MEMBERS[kind]]) spotsOfRule(r, value, [], found);
  const whole = new Set(found.filter((s) => !s.range).map((s) => pathKey(s.path)));
  const seen = new Set<string>();
  return found.filter((s) => {
    const k = `${pathKey(s.path)}${s.range ? `@${s.range.join('-')}` : ''}`;
    if (seen.has(k) || (s.range && whole.has(pathKey(s.path)))) return false;
    seen.add(k);
    return true;
  });
}

/** A copy of `value` with each spot's text replaced by what `by` answers for it (its text and the spot). */
export function replaceSpots<T>(value: T, spots: readonly CredentialSpot[], by: (text: string, spot: CredentialSpot) => string): T {
  if (!spots.length) return value;
  const copy = structuredClone(value) as Json;
  const byPath = new Map<string, CredentialSpot[]>();
  for (const s of spots) byPath.set(pathKey(s.path), [...(byPath.get(pathKey(s.path)) ?? []), s]);
  for (const group of byPath.values()) {
    const path = group[0]!.path;
    const parent = path.slice(0, -1).reduce<Json>((v, k) => (v as Record<string | number, Json>)[k], copy) as Record<string | number, Json>;
    const key = path[path.length - 1]!;
    const text = parent[key] as string;
    // From the end, so earlier ranges stay where they were.
    const ranged = group.filter((s) => s.range).sort((a, b) => b.range![0] - a.range![0]);
    if (ranged.length < group.length) parent[key] = by(text, group.find((s) => !s.range)!);
    else parent[key] = ranged.reduce((t, s) => t.slice(0, s.range![0]) + by(t.slice(s.range![0], s.range![1]), s) + t.slice(s.range![1]), text);
  }
  return copy as T;
}

/** The object as readers without the credentials see it: each credential is CREDENTIAL_MASK. */
export const maskCredentials = <T>(kind: CredentialKind, value: T): T => replaceSpots(value, credentialSpots(kind, value), () => CREDENTIAL_MASK);

/**
 * A URL sent back with masked credentials, each replaced by the stored URL's credential of the
 * same label (the user, the password, the n-th query parameter of that name). Answers the names
 * of masked ones the stored URL has none for, so the caller refuses the write.
 */
export function keepMaskedUrlCredentials(sent: string, stored: string | undefined): { url: string; unknown: string[] } {
  if (!urlCredentialRanges(sent).some((r) => sent.slice(r.range[0], r.range[1]) === CREDENTIAL_MASK)) return { url: sent, unknown: [] };
  const storedByLabel = new Map<string, string[]>();
  for (const r of stored === undefined ? [] : urlCredentialRanges(stored))
    storedByLabel.set(r.label, [...(storedByLabel.get(r.label) ?? []), stored!.slice(r.range[0], r.range[1])]);
  const nth = new Map<string, number>();
  const unknown: string[] = [];
  const kept = urlCredentialRanges(sent).map((r) => {
    const n = nth.get(r.label) ?? 0;
    nth.set(r.label, n + 1);
    const isMasked = sent.slice(r.range[0], r.range[1]) === CREDENTIAL_MASK;
    const value = isMasked ? storedByLabel.get(r.label)?.[n] : undefined;
    if (isMasked && value === undefined) unknown.push(r.label);
    return { ...r, value: value ?? sent.slice(r.range[0], r.range[1]) };
  });
  const url = kept.sort((a, b) => b.range[0] - a.range[0]).reduce((t, r) => t.slice(0, r.range[0]) + r.value + t.slice(r.range[1]), sent);
  return { url, unknown };
}
