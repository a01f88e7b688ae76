/**
 * Invalid requests for one route, generated from its entry in the route table (schemas, body
 * kind, media types) and a valid base request recorded while seeding. Every case is checked to
 * be invalid before it is sent: by the route's own Zod schema (safeParse), or by a rule of the
 * body parser (malformed JSON, nesting, forbidden keys, non-finite numbers, size, media type).
 */
import fc from 'fast-check';
import type * as z from 'zod';
import type { RouteDef } from '../../../shared/route-def';
import { matchRoute } from '../../../shared/http/fallback';
import { LIMITS } from '../../../shared/limits';
import { BAD_IDS, badQueryValue, badValueFor, nested, Raw } from './bad-values';
import { fieldsOf, type Field, type Leaf } from './zod-walk';

export interface BaseRequest {
  params: Record<string, string>;
  query: Record<string, string>;
  /** A body the route accepted (or a schema sample): its text, media type and parsed value. */
  body?: { text: string; contentType: string | undefined; value: unknown };
}

export interface FuzzCase {
  label: string;
  /** Path with query string. */
  url: string;
  headers: Record<string, string>;
  /** Text, or bytes (fetch then sends no Content-Type). */
  body?: string | Uint8Array;
  /** A specific status when the rule names one (413, 415); otherwise any 4xx. */
  expect?: number;
  giant?: boolean;
}

type Json = unknown;
const clone = <T>(v: T): T => (v === undefined ? v : structuredClone(v));

/** JSON text with Raw tokens spliced in. */
export function render(value: Json): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_k, v) => {
    if (v instanceof Raw) {
      raws.push(v.token);
      return `RAW~~${raws.length - 1}~~RAW`;
    }
    return v;
  });
  return text === undefined ? '' : text.replace(/"RAW~~(\d+)~~RAW"/g, (_m, i) => raws[Number(i)]!);
}

function setAt(root: Json, path: string[], value: unknown): Json {
  if (!path.length) return value;
  const top: any = root !== null && typeof root === 'object' ? root : {};
  let cur: any = top;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i]!;
    const nextIsIndex = path[i + 1] === '0';
    if (cur[k] === null || typeof cur[k] !== 'object') cur[k] = nextIsIndex ? [] : {};
    cur = cur[k];
  }
  cur[path[path.length - 1]!] = value;
  return top;
}

function deleteAt(root: Json, path: string[]): Json {
  let cur: any = root;
  for (const k of path.slice(0, -1)) {
    if (cur === null || typeof cur !== 'object') return root;
    cur = cur[k];
  }
  if (cur !== null && typeof cur === 'object') delete cur[path[path.length - 1]!];
  return root;
}

/** Deepest object nesting, as the body parser counts it (top level = 1). */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    max = Math.max(max, d);
    for (const c of Object.values(v)) stack.push([c, d + 1]);
  }
  return max;
}

/** Paths present in a concrete value (for members the schema keeps loose, such as whole documents). */
function valuePaths(value: Json, skip: (key: string) => boolean, maxDepth = 5): Field[] {
  const out: Field[] = [];
  const walk = (v: unknown, path: string[], depth: number) => {
    if (depth > 0) out.push({ path, leaf: leafOfValue(v), optional: true });
    if (depth >= maxDepth || v === null || typeof v !== 'object') return;
    for (const [k, c] of Object.entries(v)) if (!skip(k)) walk(c, [...path, k], depth + 1);
  };
  walk(value, [], 0);
  return out;
}

function leafOfValue(v: unknown): Leaf {
  if (typeof v === 'string') return { kind: 'string', required: [] };
  if (typeof v === 'number') return { kind: 'number', required: [] };
  if (typeof v === 'boolean') return { kind: 'boolean', required: [] };
  if (Array.isArray(v)) return { kind: 'array', required: [] };
  if (v !== null && typeof v === 'object') return { kind: 'object', required: [] };
  return { kind: 'unknown', required: [] };
}

/**
 * For documents without a schema here (raw bodies): only a value of another JSON type than the
 * accepted document had, which OpenAPI refuses for every member outside OPEN_MEMBERS.
 */
function otherTypeThan(leaf: Leaf): fc.Arbitrary<unknown> {
  const all: Array<[Leaf['kind'], fc.Arbitrary<unknown>]> = [
    ['string', fc.string({ maxLength: 8 })],
    ['number', fc.oneof(fc.integer(), fc.constantFrom(new Raw('1e309'), new Raw('-0')))],
    ['boolean', fc.boolean()],
    ['array', fc.array(fc.integer(), { maxLength: 2 })],
    ['object', fc.constantFrom({}, { a: 1 })],
    ['unknown', fc.constant(null)],
  ];
  return fc.oneof(...all.filter(([k]) => k !== leaf.kind).map(([, a]) => a));
}

const WRONG_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  'text/json',
  'application/octet-stream',
  'image/png',
  'text/html; charset=utf-8',
];
const NON_OBJECTS = ['123', '"text"', '[]', '[{}]', 'null', 'true', '""', '-0', '1e309', '[[[[]]]]'];
/** Members of an OpenAPI document whose type the OpenAPI schema leaves open, or extensions. */
const OPEN_MEMBERS = (k: string) =>
  k.startsWith('x-') || ['example', 'examples', 'default', 'enum', 'const', 'additionalProperties', 'items', 'value'].includes(k);

export function queryString(q: Record<string, string>, repeat?: [string, string[]]): string {
  const parts = Object.entries(q).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  if (repeat) for (const v of repeat[1]) parts.push(`${encodeURIComponent(repeat[0])}=${encodeURIComponent(v)}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

export function concretePath(template: string, params: Record<string, string>, encode = encodeURIComponent): string {
  return template.replace(/\{([^}]+)\}/g, (_m, n: string) => encode(params[n] ?? 'abc123'));
}

function jsonType(route: RouteDef): string {
  return (route.contentTypes ?? ['application/json']).find((t) => t.includes('json')) ?? 'application/json';
}

interface Candidate {
  label: string;
  query?: Record<string, string>;
  repeat?: [string, string[]];
  body?: { text: string; contentType?: string | undefined } | 'none';
  /** Why it is invalid: 'schema' needs the schema to refuse; the others are parser rules. */
  rule: 'schema-body' | 'schema-query' | 'parser' | 'media' | 'raw-doc';
  expect?: number;
}

/** Generators for one route; `schemaOk` answers whether the route's body schema takes a value. */
function candidateArb(route: RouteDef, base: BaseRequest): fc.Arbitrary<Candidate> | undefined {
  const arbs: Array<{ arbitrary: fc.Arbitrary<Candidate>; weight: number }> = [];
  const baseValue = base.body?.value;
  const ct = base.body?.contentType ?? jsonType(route);
  const takesBody = !!route.body || route.bodyKind === 'raw';

  if (takesBody) {
    const isRaw = route.bodyKind === 'raw' || !route.body;
    const fields: Field[] = isRaw ? valuePaths(baseValue, OPEN_MEMBERS) : [...fieldsOf(route.body as z.ZodType), ...valuePaths(baseValue, () => false)];
    const objectPaths = [[], ...fields.filter((f) => f.leaf.kind === 'object' || f.leaf.kind === 'record' || f.leaf.kind === 'unknown').map((f) => f.path)];
    const withJson = (label: string, value: Json, rule: Candidate['rule'], contentType = ct): Candidate => ({
      label,
      body: { text: render(value), contentType },
      rule,
    });

    if (fields.length) {
      const wrong = fc
        .constantFrom(...fields.filter((f) => !isRaw || f.leaf.kind !== 'unknown'))
        .chain((f) =>
          (isRaw ? otherTypeThan(f.leaf) : badValueFor(f.leaf)).map((v) =>
            withJson(
              `${isRaw ? 'doc member' : 'field'} ${f.path.join('.') || '(root)'} = ${short(v)}`,
              setAt(clone(baseValue), f.path, v),
              isRaw ? 'raw-doc' : 'schema-body',
            ),
          ),
        );
      arbs.push({ arbitrary: wrong, weight: 12 });
    }
    if (!isRaw) {
      const required = fields.flatMap((f) => (f.leaf.kind === 'object' ? f.leaf.required.map((k) => [...f.path, k]) : []));
      if (required.length) {
        arbs.push({
          arbitrary: fc.constantFrom(...required).map((p) => withJson(`missing required ${p.join('.')}`, deleteAt(clone(baseValue), p), 'schema-body')),
          weight: 2,
        });
      }
      const patterned = fields.filter((f) => f.leaf.kind === 'string' && f.leaf.patterned);
      if (patterned.length) {
        arbs.push({
          arbitrary: fc
            .tuple(fc.constantFrom(...patterned), fc.constantFrom(...BAD_IDS))
            .map(([f, id]) => withJson(`id field ${f.path.join('.')} = ${short(id)}`, setAt(clone(baseValue), f.path, id), 'schema-body')),
          weight: 3,
        });
      }
    }
    // Parser rules: any place in the document.
    arbs.push({
      arbitrary: fc
        .tuple(fc.constantFrom(...objectPaths), fc.constantFrom(65, 200, 1000))
        .map(([p, n]) => withJson(`nesting ${n} deep at ${p.join('.') || '(root)'}`, setAt(clone(baseValue), [...p, 'deep'], nested(n)), 'parser')),
      weight: 1,
    });
    arbs.push({
      arbitrary: fc.tuple(fc.constantFrom(...objectPaths), fc.constantFrom('__proto__', 'constructor')).map(([p, key]) => ({
        label: `${key} key at ${p.join('.') || '(root)'}`,
        body: { text: protoText(baseValue, p, key), contentType: ct },
        rule: 'parser' as const,
      })),
      weight: 2,
    });
    arbs.push({
      arbitrary: fc
        .tuple(fc.constantFrom(...objectPaths), fc.constantFrom('1e309', '-1e309', '1e400'))
        .map(([p, t]) => withJson(`non-finite ${t} at ${[...p, 'n'].join('.')}`, setAt(clone(baseValue), [...p, 'n'], new Raw(t)), 'parser')),
      weight: 1,
    });
    const full = base.body?.text ?? render(baseValue ?? {});
    arbs.push({
      arbitrary: fc.integer({ min: 0, max: Math.max(0, full.length - 1) }).map((k) => ({
        label: `truncated JSON at ${k}/${full.length}`,
        body: { text: full.slice(0, k), contentType: ct.includes('json') || ct.includes('vnd') ? ct : jsonType(route) },
        rule: 'parser' as const,
      })),
      weight: 2,
    });
    const accepted = route.contentTypes ?? ['application/json'];
    arbs.push({
      arbitrary: fc.constantFrom(...WRONG_TYPES.filter((t) => !accepted.includes(t.split(';')[0]!))).map((t) => ({
        label: `Content-Type ${t}`,
        body: { text: full, contentType: t },
        rule: 'media' as const,
        expect: 415,
      })),
      weight: 2,
    });
    arbs.push({
      arbitrary: fc
        .constantFrom(...NON_OBJECTS)
        .map((t) => ({ label: `top-level ${t}`, body: { text: t, contentType: ct }, rule: isRaw ? ('raw-doc' as const) : ('schema-body' as const) })),
      weight: 1,
    });
    if (accepted.some((t) => t.includes('yaml'))) {
      const yamlType = accepted.find((t) => t.includes('yaml'))!;
      arbs.push({
        arbitrary: fc
          .constantFrom(...YAML_GARBAGE)
          .map((t) => ({ label: `YAML ${short(t)}`, body: { text: t, contentType: yamlType }, rule: 'raw-doc' as const })),
        weight: 1,
      });
    }
  }

  if (route.query) {
    const qFields = fieldsOf(route.query as z.ZodType, 1).filter((f) => f.path.length === 1);
    if (qFields.length) {
      const bodyOfBase = base.body ? { text: base.body.text, contentType: base.body.contentType } : undefined;
      arbs.push({
        arbitrary: fc
          .tuple(fc.constantFrom(...qFields), fc.boolean(), fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 2 }))
          .chain(([f, repeat, extra]) =>
            badQueryValue(f.leaf).map((v): Candidate => {
              const k = f.path[0]!;
              return repeat
                ? {
                    label: `query ${k} repeated (${short(v)}, ${extra.map(short).join(', ')})`,
                    query: { ...base.query, [k]: v },
                    repeat: [k, extra],
                    body: bodyOfBase ?? 'none',
                    rule: 'schema-query',
                  }
                : { label: `query ${k}=${short(v)}`, query: { ...base.query, [k]: v }, body: bodyOfBase ?? 'none', rule: 'schema-query' };
            }),
          ),
        weight: takesBody ? 6 : 30,
      });
    }
  }
  return arbs.length ? fc.oneof(...arbs) : undefined;
}

const YAML_GARBAGE = [
  'openapi: [',
  ': :',
  '- a\n- b',
  '{{{',
  'openapi: 3.0.3\ninfo: [',
  '\t- x',
  'a: &a [*a]',
  'a: !!binary "###"',
  '%YAML 9.9\n---\na: 1',
  'openapi: 3.0.3\ninfo:\n  title: x\n  version: 1\npaths: 5',
  // Alias expansion ("billion laughs"): the parser must refuse, not expand.
  [
    'a: &a ["x","x","x","x","x","x","x","x","x"]',
    ...Array.from({ length: 9 }, (_, i) => `${'bcdefghij'[i]}: &${'bcdefghij'[i]} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
  ].join('\n'),
  // Aliases count per document (docs/reference/limits.md): five anchors, 101 aliases in all.
  [...[0, 1, 2, 3, 4].map((i) => `x-s${i}: &a${i} v${i}`), `x-l: [${Array.from({ length: 101 }, (_, i) => `*a${i % 5}`).join(',')}]`].join('\n'),
  // 100 aliases expanding past 5 MB of JSON: 413.
  [
    ...[0, 1, 2, 3, 4].map((i) => `x-s${i}: &a${i} "${String(i).repeat(60_000)}"`),
    `x-l: [${Array.from({ length: 100 }, (_, i) => `*a${i % 5}`).join(',')}]`,
  ].join('\n'),
  // A server URL of 200,000 braces (the substitution was quadratic) and a line of CRs in an error (the library's pretty errors were).
  `openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\nservers: [{url: "http://h/${'{'.repeat(200_000)}"}]`,
  `a: [\n${'\r'.repeat(100_000)}x: : :\n`,
  '__proto__:\n  polluted: 1\nopenapi: 3.0.3',
  // YAML has non-finite numbers JSON lacks; storage cannot hold them.
  'openapi: 3.0.3\ninfo:\n  title: t\n  version: "1"\n  x-n: .inf\nservers:\n  - url: https://up.example.com\npaths: {}',
  'openapi: 3.0.3\ninfo:\n  title: t\n  version: "1"\n  x-n: .nan\nservers:\n  - url: https://up.example.com\npaths: {}',
  'openapi: 3.0.3\ninfo:\n  title: t\n  version: "1"\n  x-n: -.inf\nservers:\n  - url: https://up.example.com\npaths: {}',
];

/** The text with a `__proto__` or `constructor.prototype` member added to the object at `path`. */
function protoText(base: Json, path: string[], key: string): string {
  const marker = 'PROTO~~MARK';
  const v = setAt(clone(base ?? {}), [...path, marker], 1);
  const member = key === '__proto__' ? '"__proto__":{"polluted":true}' : '"constructor":{"prototype":{"polluted":true}}';
  return render(v).replace(`"${marker}":1`, member);
}

function short(v: unknown): string {
  let s: string;
  if (v instanceof Raw) s = v.token;
  else if (typeof v === 'string') s = JSON.stringify(v);
  else s = render(v);
  return s.length > 40 ? `${s.slice(0, 37)}...(${s.length} chars)` : s;
}

/** Whether the service must refuse this candidate, judged by the route's own schemas (async, as the service validates) and parser rules. */
async function isInvalid(route: RouteDef, _base: BaseRequest, c: Candidate): Promise<boolean> {
  if (c.rule === 'media' || c.rule === 'raw-doc') return true;
  if (c.rule === 'schema-query') {
    const q: Record<string, string> = { ...(c.query ?? {}) };
    if (c.repeat) q[c.repeat[0]] = [q[c.repeat[0]], ...c.repeat[1]].filter((x) => x !== undefined).join(',');
    return !(route.query as z.ZodType).safeParse(q).success;
  }
  const text = c.body && c.body !== 'none' ? c.body.text : undefined;
  let parsed: unknown;
  try {
    parsed = text === undefined || text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    return true; // malformed JSON
  }
  if (text !== undefined && /"(__proto__|constructor)":/.test(text)) return true;
  if (depthOf(parsed) > LIMITS.jsonDepth) return true;
  if (c.rule === 'parser') return true;
  return !(await (route.body as z.ZodType).safeParseAsync(parsed)).success;
}

function toCase(route: RouteDef, base: BaseRequest, c: Candidate): FuzzCase {
  const url = concretePath(route.path, base.params) + queryString(c.query ?? base.query, c.repeat);
  const headers: Record<string, string> = {};
  let body: FuzzCase['body'];
  const b = c.body ?? (base.body ? { text: base.body.text, contentType: base.body.contentType } : undefined);
  if (b && b !== 'none') {
    if (b.contentType) {
      headers['content-type'] = b.contentType;
      body = b.text;
    } else body = new TextEncoder().encode(b.text);
  }
  return { label: c.label, url, headers, body, expect: c.expect };
}

/** Cases every body-taking route gets once, whatever the sample draws: each listed hostile form. */
function fixedCandidates(route: RouteDef, base: BaseRequest): Candidate[] {
  if (!route.body && route.bodyKind !== 'raw') return [];
  const isRaw = route.bodyKind === 'raw' || !route.body;
  const ct = base.body?.contentType ?? jsonType(route);
  const value = base.body?.value ?? {};
  const full = base.body?.text ?? render(value);
  const accepted = route.contentTypes ?? ['application/json'];
  const out: Candidate[] = [
    ...NON_OBJECTS.map((t) => ({ label: `top-level ${t}`, body: { text: t, contentType: ct }, rule: isRaw ? ('raw-doc' as const) : ('schema-body' as const) })),
    ...WRONG_TYPES.filter((t) => !accepted.includes(t.split(';')[0]!)).map((t) => ({
      label: `Content-Type ${t}`,
      body: { text: full, contentType: t },
      rule: 'media' as const,
      expect: 415,
    })),
    ...['__proto__', 'constructor'].map((k) => ({
      label: `${k} key at (root)`,
      body: { text: protoText(value, [], k), contentType: ct },
      rule: 'parser' as const,
    })),
    { label: '1e309 at (root).n', body: { text: render(setAt(clone(value), ['n'], new Raw('1e309'))), contentType: ct }, rule: 'parser' },
    { label: 'truncated JSON (last byte cut)', body: { text: full.slice(0, -1), contentType: ct }, rule: 'parser' },
    { label: 'nesting 65 deep (one over the limit)', body: { text: render(nested(65)), contentType: ct }, rule: 'parser' },
  ];
  const yamlType = accepted.find((t) => t.includes('yaml'));
  if (yamlType) out.push(...YAML_GARBAGE.map((t) => ({ label: `YAML ${short(t)}`, body: { text: t, contentType: yamlType }, rule: 'raw-doc' as const })));
  // Without a JSON media type among the accepted ones, a missing Content-Type is a wrong one too.
  if (!accepted.includes('application/json')) out.push({ label: 'no Content-Type', body: { text: full, contentType: undefined }, rule: 'media', expect: 415 });
  return out;
}

/**
 * At least `min` invalid cases for the route from `seed` (sampled with fast-check, filtered to
 * those the service must refuse); [] when the route takes neither a body nor a query.
 */
export async function invalidCases(route: RouteDef, base: BaseRequest, seed: number, min: number): Promise<FuzzCase[]> {
  const arb = candidateArb(route, base);
  if (!arb) return [];
  const out: FuzzCase[] = [];
  for (const c of fixedCandidates(route, base)) if (await isInvalid(route, base, c)) out.push(toCase(route, base, c));
  for (let round = 0; out.length < min && round < 20; round++) {
    for (const c of fc.sample(arb, { seed: seed + round, numRuns: min })) {
      // Lone surrogates cannot be percent-encoded: such a query cannot be sent at all.
      let fuzzCase: FuzzCase;
      try {
        fuzzCase = toCase(route, base, c);
      } catch {
        continue;
      }
      if (await isInvalid(route, base, c)) out.push(fuzzCase);
      if (out.length >= min + 40) break;
    }
  }
  return out;
}

/** A few very large requests: over the body limit, 100,000-item arrays, a 1,000-deep document. */
export function giantCases(route: RouteDef, base: BaseRequest): FuzzCase[] {
  if (!route.body && route.bodyKind !== 'raw') return [];
  const ct = base.body?.contentType ?? jsonType(route);
  const baseValue = base.body?.value ?? {};
  const fields = route.body ? fieldsOf(route.body as z.ZodType) : valuePaths(baseValue, OPEN_MEMBERS);
  const url = concretePath(route.path, base.params) + queryString(base.query);
  const headers: Record<string, string> = ct ? { 'content-type': ct } : {};
  const out: FuzzCase[] = [];
  const huge = 'x'.repeat(LIMITS.bodyBytes + 16);
  const strField = fields.find((f) => f.leaf.kind === 'string');
  out.push({
    label: `string of ${huge.length} chars${strField ? ` in ${strField.path.join('.')}` : ''} (body over 5 MB)`,
    url,
    headers,
    body: render(setAt(clone(baseValue), strField?.path ?? ['huge'], huge)),
    expect: 413,
    giant: true,
  });
  // Arrays the schema bounds (<= 10,000 items): 100,000 items must be refused, and quickly.
  const arrField = route.body ? fields.find((f) => f.leaf.kind === 'array' && f.leaf.maxLength !== undefined && f.leaf.maxLength < 100_000) : undefined;
  const items = Array.from({ length: 100_000 }, () => 1);
  out.push({
    label: arrField ? `array of 100000 items at ${arrField.path.join('.')}` : 'top-level array of 100000 items',
    url,
    headers,
    body: render(arrField ? setAt(clone(baseValue), arrField.path, items) : items),
    giant: true,
  });
  out.push({ label: 'document nested 1000 deep', url, headers, body: render(setAt(clone(baseValue), ['deep'], nested(1000))), giant: true });
  return out;
}

/** Bad path parameters, one parameter at a time, percent-encoded or raw. */
export function pathCases(route: RouteDef, base: BaseRequest, seed: number, n: number): FuzzCase[] {
  const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  if (!names.length) return [];
  const bodyCase = { label: '', rule: 'schema-body' as const };
  const template = toCase(route, base, bodyCase);
  const query = template.url.includes('?') ? template.url.slice(template.url.indexOf('?')) : '';
  const encodable = (v: string) => {
    try {
      encodeURIComponent(v);
      return true;
    } catch {
      return false;
    }
  };
  const arb = fc.tuple(
    fc.constantFrom(...names),
    fc.oneof(fc.constantFrom(...BAD_IDS), fc.string({ maxLength: 20, unit: 'binary' }), fc.constantFrom('%', '%zz', '%2', '%00', '%2e%2e', '%252F', '%C0%AF')),
    fc.constantFrom('encoded', 'encoded', 'raw'),
  );
  const out: FuzzCase[] = [];
  for (const [name, value, how] of fc.sample(arb, { seed, numRuns: n * 3 })) {
    if (out.length >= n) break;
    if (how === 'encoded' && !encodable(value)) continue;
    if (how === 'encoded' && route.params && (route.params as z.ZodType).safeParse({ ...base.params, [name]: value }).success) continue;
    // Raw: only characters that stay inside one path segment (`..` is resolved by the URL parser).
    if (how === 'raw' && !/^[%.A-Za-z0-9]+$/.test(value)) continue;
    if (how === 'raw' && !/%|^\.\.?$/.test(value)) continue;
    const path = route.path.replace(/\{([^}]+)\}/g, (_m, p: string) =>
      p === name ? (how === 'raw' ? value : encodeURIComponent(value)) : encodeURIComponent(base.params[p] ?? 'abc123'),
    );
    // A dot segment the URL parser resolves (`..`, `.%2e`) sends the request to the path it leads
    // to: when that is another route of the table, the request is that route's, not a bad id here.
    const resolved = new URL(path, 'http://fuzz.invalid').pathname;
    if (resolved !== path && matchRoute(route.method, resolved)) continue;
    out.push({ label: `path ${name}=${short(value)} (${how})`, url: path + query, headers: template.headers, body: template.body });
  }
  return out;
}
