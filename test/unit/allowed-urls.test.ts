/**
 * allowed_urls (contract §10, docs/reference/limits.md): the rules of an access entry run as one RE2 set,
 * built once per entry object, and answer exactly what trying each rule alone answers; the writes
 * bound the rules by number and by program size, and refuse a pattern that is not RE2.
 */
import { RE2JS, RE2Set } from 're2js';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { urlAllowed, type RequestLine } from '../../shared/domain/allowed-urls';
import { loadRe2 } from '../../shared/lib/re2-engine';
import { ALLOWED_URL_LIMITS } from '../../shared/limits';
import { accessRightsSchema } from '../../shared/schemas/keys';
import { re2SizeEstimate } from '../../shared/schemas/re2-size';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Each pattern compiled alone (once per pattern: the reference's speed is not under test). */
const alone = new Map<string, RE2JS | null>();
function compiledAlone(url: string): RE2JS | null {
  if (!alone.has(url)) {
    try {
      alone.set(url, RE2JS.compile(url));
    } catch {
      alone.set(url, null);
    }
  }
  return alone.get(url)!;
}

/** The rules tried one by one, each pattern compiled alone: what the check has always meant. */
function oneByOne(entry: unknown, request: RequestLine | undefined): boolean {
  const urls = entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? (entry as { allowed_urls?: unknown }).allowed_urls : undefined;
  if (!Array.isArray(urls) || urls.length === 0) return true;
  if (!request || request.paths.length === 0) return false;
  const method = request.method?.toUpperCase();
  return urls
    .filter((u): u is Record<string, unknown> => u !== null && typeof u === 'object' && !Array.isArray(u))
    .some((u) => {
      const re = compiledAlone(typeof u.url === 'string' ? u.url : '');
      if (!re || !request.paths.some((p) => re.matcher(p).find())) return false;
      const methods = Array.isArray(u.methods) ? u.methods.filter((m): m is string => typeof m === 'string') : [];
      return methods.length === 0 || (method !== undefined && methods.some((m) => m.toUpperCase() === method));
    });
}

/** A deterministic generator, so a failure names a case that can be run again. */
function prng(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x / 0x7fffffff;
  };
}

const SHAPES = [
  (i: number) => `^/api/v1/res${i}/[0-9]+$`,
  (i: number) => `/res${i}/`,
  (i: number) => `^/res${i % 7}(?:/[a-z]+)*/?$`,
  (i: number) => `(?i)^/Res${i % 5}/items`,
  (i: number) => `\\bres${i % 3}\\b`,
  (i: number) => `res${i % 4}$`,
  (i: number) => `^/(?:a|b|c)${i % 9}/[^/]{2,4}/x`,
  (i: number) => `[0-9a-f]{8}-[0-9a-f]{4}/res${i % 6}`,
  (i: number) => `^/res${i % 11}/(?P<id>[0-9]+)/(?P<id2>[a-z]+)$`,
  (i: number) => `\\Q/res${i % 8}.x\\E`,
  (i: number) => `(?m)^/res${i % 3}|x\\z|\\A/v1`,
  (i: number) => `(?s:.)res${i % 10}[^0-9]?.$`,
  () => '^/',
  () => '',
  // Stored before writes checked them: not RE2, so they match nothing.
  (i: number) => `(res${i}`,
  (i: number) => `[res${i}`,
  () => '(?<=/a)b',
  () => 'a**',
];
const METHOD_SETS = [[], ['GET'], ['get', 'POST'], ['DELETE'], ['PUT', 'PATCH', 'Get']];

function rulesAt(n: number, seed: number) {
  const rnd = prng(seed);
  return Array.from({ length: n }, (_, i) => {
    const url = SHAPES[Math.floor(rnd() * SHAPES.length)]!(i);
    const methods = METHOD_SETS[Math.floor(rnd() * METHOD_SETS.length)]!;
    // A rule that matches every path allows only DELETE, so the other answers still depend on the path.
    return { url, methods: url === '' || url === '^/' ? ['delete'] : methods };
  });
}

function pathsFor(seed: number, count: number): string[] {
  const rnd = prng(seed);
  const seg = () =>
    [
      'api',
      'v1',
      `res${Math.floor(rnd() * 120)}`,
      `Res${Math.floor(rnd() * 6)}`,
      String(Math.floor(rnd() * 1000)),
      'items',
      'x',
      'a',
      'b3',
      'deadbeef-1234',
      'res2.x',
      'é',
    ][Math.floor(rnd() * 12)]!;
  return Array.from({ length: count }, () => `/${Array.from({ length: 1 + Math.floor(rnd() * 5) }, seg).join('/')}${rnd() < 0.2 ? '/' : ''}`);
}

// The check loads the engine before it asks an entry with rules (shared/services/session-check.ts).
beforeAll(loadRe2);

describe('the combined matcher answers what the rules tried one by one answer', () => {
  it(`at the limit (${ALLOWED_URL_LIMITS.rules} rules), invalid stored patterns included, on 600 paths × 5 methods, both paths at once too`, () => {
    for (const seed of [1, 2, 3]) {
      const entry = { api_id: 'a', allowed_urls: rulesAt(ALLOWED_URL_LIMITS.rules, seed) };
      const paths = pathsFor(seed * 7, 600);
      const differ: string[] = [];
      const answers = { true: 0, false: 0 };
      for (const [k, path] of paths.entries()) {
        for (const method of ['GET', 'post', 'DELETE', 'PATCH', undefined]) {
          const requests: RequestLine[] = [
            { paths: [path], method },
            { paths: [path, paths[(k + 1) % paths.length]!], method },
          ];
          for (const request of requests) {
            const allowed = urlAllowed(entry, request);
            answers[`${allowed}`]++;
            if (allowed !== oneByOne(entry, request)) differ.push(`${seed} ${method} ${request.paths.join(' ')}`);
          }
        }
      }
      expect(differ).toEqual([]);
      // Not a table of one answer: both are well represented.
      expect(Math.min(answers.true, answers.false), JSON.stringify(answers)).toBeGreaterThan(600);
    }
  });

  it('more rules than writes take (1,100, as stored before the limit) still answer the same', () => {
    const entry = { api_id: 'a', allowed_urls: rulesAt(1100, 9) };
    const answers = pathsFor(11, 300).map((path) => {
      const request = { paths: [path], method: 'GET' };
      expect(urlAllowed(entry, request), path).toBe(oneByOne(entry, request));
      return urlAllowed(entry, request);
    });
    expect(answers.filter(Boolean).length).toBeGreaterThan(30);
    expect(answers.filter((a) => !a).length).toBeGreaterThan(30);
  });

  it('rules too large together for one program (1.4 million instructions, stored before the limits) are split, and still answer the same', () => {
    // Each compiles alone (700,002 instructions); together they pass re2js's program size.
    const entry = { api_id: 'a', allowed_urls: [{ url: `^/a${'[a-z]{1000}'.repeat(700)}` }, { url: `^/b/${'[0-9]{1000}'.repeat(700)}` }, { url: '^/c$' }] };
    const requests = [`/a${'x'.repeat(700_000)}`, `/b/${'1'.repeat(700_000)}`, '/c', '/a/short'].map((p) => ({ paths: [p], method: 'GET' }));
    const compile = RE2Set.prototype.compile;
    const outcomes: string[] = [];
    vi.spyOn(RE2Set.prototype, 'compile').mockImplementation(function (this: RE2Set) {
      try {
        compile.call(this);
        outcomes.push('built');
      } catch (e) {
        outcomes.push('too large');
        throw e;
      }
    });
    expect(requests.map((r) => urlAllowed(entry, r))).toEqual([true, true, true, false]);
    // The whole set, then its first half, were too large; each pattern then built alone.
    expect(outcomes).toEqual(['too large', 'too large', 'built', 'built', 'built']);
  }, 120_000);

  it('edge entries: no rules allows all; rules but no path refuse; rules none of which is an object refuse; a url that is not a string is ""', () => {
    const get = { paths: ['/x'], method: 'GET' };
    const cases: Array<[unknown, RequestLine | undefined]> = [
      [{ api_id: 'a' }, get],
      [{ api_id: 'a', allowed_urls: [] }, get],
      [{ api_id: 'a', allowed_urls: null }, get],
      [{ api_id: 'a', allowed_urls: [{ url: '^/x' }] }, undefined],
      [
        { api_id: 'a', allowed_urls: [{ url: '^/x' }] },
        { paths: [], method: 'GET' },
      ],
      [{ api_id: 'a', allowed_urls: ['^/x', 3, null] }, get],
      [{ api_id: 'a', allowed_urls: [{ url: 42, methods: ['GET'] }] }, get],
      [{ api_id: 'a', allowed_urls: [{ url: '^/x', methods: 'GET' }] }, get],
      [{ api_id: 'a', allowed_urls: [{ url: '^/x', methods: [1, 'POST'] }] }, get],
      [
        { api_id: 'a', allowed_urls: [{ url: '^/x', methods: ['GET'] }] },
        { paths: ['/x'], method: undefined },
      ],
      [{ api_id: 'a', allowed_urls: [{ url: '(' }] }, get],
      [true, get],
      [null, get],
    ];
    expect(cases.map(([entry, request]) => urlAllowed(entry, request))).toEqual(cases.map(([entry, request]) => oneByOne(entry, request)));
    expect(cases.map(([entry, request]) => urlAllowed(entry, request))).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      true,
      true,
      false,
      false,
      false,
      true,
      true,
    ]);
  });
});

/** How often each pattern was compiled for matching, whichever way (alone or in a set). */
function compilations() {
  const seen = new Map<string, number>();
  const note = (p: unknown) => seen.set(String(p), (seen.get(String(p)) ?? 0) + 1);
  const add = RE2Set.prototype.add;
  vi.spyOn(RE2Set.prototype, 'add').mockImplementation(function (this: RE2Set, p: string) {
    note(p);
    return add.call(this, p);
  });
  const compile = RE2JS.compile.bind(RE2JS);
  vi.spyOn(RE2JS, 'compile').mockImplementation((p: string, flags?: number) => {
    note(p);
    return compile(p, flags);
  });
  return seen;
}

describe('compiled rules belong to their access entry', () => {
  it("another key's 1,100 distinct patterns neither evict nor rebuild this key's automaton", () => {
    const mine = { api_id: 'a', allowed_urls: [{ url: '^/mine/[0-9]+$', methods: ['GET'] }] };
    const theirs = Array.from({ length: 11 }, (_, k) => ({
      api_id: 'b',
      allowed_urls: Array.from({ length: 100 }, (_, i) => ({ url: `^/theirs${k}-${i}/[a-z]+$` })),
    }));
    const seen = compilations();
    const get = (path: string) => ({ paths: [path], method: 'GET' });
    expect(urlAllowed(mine, get('/mine/1'))).toBe(true);
    for (const entry of theirs) for (const path of ['/theirs3-7/x', '/nothing']) urlAllowed(entry, get(path));
    expect(urlAllowed(mine, get('/mine/2'))).toBe(true);
    expect(urlAllowed(mine, get('/yours/2'))).toBe(false);
    // Their patterns were all compiled: the load happened.
    expect([...seen.keys()].filter((p) => p.startsWith('^/theirs')).length).toBe(1100);
    expect(seen.get('^/mine/[0-9]+$')).toBe(1);
  });

  it('an entry is compiled once however many checks use it; a new entry object (a new session read) compiles again', () => {
    const rules = [{ url: '^/once/' }, { url: '^/twice/' }];
    const entry = { api_id: 'a', allowed_urls: rules };
    const seen = compilations();
    for (let i = 0; i < 20; i++) urlAllowed(entry, { paths: [`/once/${i}`], method: 'GET' });
    expect(seen.get('^/once/')).toBe(1);
    urlAllowed({ ...entry }, { paths: ['/once/x'], method: 'GET' });
    expect(seen.get('^/once/')).toBe(2);
  });
});

describe('writes bound allowed_urls (every write of access rights uses this schema)', () => {
  const rights = (...lists: Array<Array<{ url: string; methods?: string[] }>>) =>
    Object.fromEntries(lists.map((allowed_urls, k) => [`api${k}`, { api_id: `api${k}`, allowed_urls }]));
  const rules = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ url: `^/${prefix}${i}/[0-9]+$`, methods: ['GET'] }));
  const issues = async (value: unknown) => {
    const r = await accessRightsSchema.safeParseAsync(value);
    return r.success ? [] : r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  };

  it(`takes ${ALLOWED_URL_LIMITS.rules} rules over several APIs and refuses one more, naming the first rule past the limit`, async () => {
    expect(await issues(rights(rules(60, 'a'), rules(40, 'b')))).toEqual([]);
    expect(await issues(rights(rules(60, 'a'), rules(41, 'b')))).toEqual([
      { path: 'api1.allowed_urls.40', message: "at most 100 allowed_urls rules in one key's or policy's access_rights, all APIs together (101 given)" },
    ]);
  });

  it('answers deeply nested patterns with a 400 or as re2js judges them, never a crash (the estimate stops descending at 1,000)', async () => {
    for (const url of ['('.repeat(65_536), `${'(a'.repeat(20_000)}${')'.repeat(20_000)}`]) {
      // Refused as too large unread, or compiled and refused as not RE2: a 400 either way.
      const refusal = expect.stringMatching(/^not an RE2 regular expression: |compile to at most 5,000 RE2 instructions/);
      expect(await issues(rights([{ url }]))).toEqual([{ path: 'api0.allowed_urls.0.url', message: refusal }]);
    }
    // Non-capturing groups 1,500 deep: re2js flattens them, so the pattern is valid.
    expect(await issues(rights([{ url: `${'(?:a'.repeat(1500)}${')'.repeat(1500)}` }]))).toEqual([]);
  });

  it('refuses a pattern that is not RE2, naming its url', async () => {
    expect(await issues(rights([{ url: '^/ok' }, { url: '(unclosed' }, { url: '(?<=/a)b' }]))).toEqual([
      { path: 'api0.allowed_urls.1.url', message: expect.stringMatching(/^not an RE2 regular expression: .*missing closing \)/) },
      { path: 'api0.allowed_urls.2.url', message: expect.stringMatching(/^not an RE2 regular expression: /) },
    ]);
  });

  it(`refuses rules past ${ALLOWED_URL_LIMITS.program.toLocaleString('en-US')} instructions together; a far larger pattern unread`, async () => {
    // 4,000 + 1,002 instructions: the second rule passes the limit.
    expect(await issues(rights([{ url: '[a-z]{1000}[a-z]{1000}[a-z]{1000}[a-z]{998}' }], [{ url: '[0-9]{1000}' }]))).toEqual([
      {
        path: 'api1.allowed_urls.0.url',
        message: 'the allowed_urls rules of one key or policy may compile to at most 5,000 RE2 instructions together; with this one they take 5,002',
      },
    ]);
    const huge = '(?:ab|cd){1000}'.repeat(60);
    const seen = compilations();
    expect(await issues(rights([{ url: huge }]))).toEqual([
      {
        path: 'api0.allowed_urls.0.url',
        message: 'the allowed_urls rules of one key or policy may compile to at most 5,000 RE2 instructions together; with this one they take about 300,002',
      },
    ]);
    expect(seen.get(huge)).toBeUndefined();
  });
});

describe("the size estimate that spares a write compiling a huge pattern is RE2's", () => {
  it('is never under half the compiled program, nor over twice it (plus a few instructions re2js saves on tiny ones)', async () => {
    const corpus = [
      '^/api/v1/resource5/[0-9]+/items/(?:[a-z]+)/sub5$',
      '\\pL{1000}',
      '(?:ab|cd){100}',
      '^/pets',
      '',
      'a|b|c',
      '(a)(b)',
      '(?P<id>[0-9]+)',
      '(?i)abc',
      'a{2,5}',
      'a{3,}',
      'x*?y+?z??',
      '\\Qa.b{1000}\\E',
      '[]a]{10}',
      '[[:alpha:]]{100}',
      '\\x{41}{10}',
      '\\p{Greek}+',
      '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
      '(?:(?:a{10}){10}){10}',
      'a{,5}',
      '(?s:.){240}z',
      '(?:.*a){60}z',
      '😀{5}',
      '(a|b)*a(a|b){20}',
      '^/v2/customers/[^/]+/invoices/?$',
    ];
    const off = corpus
      .map((p) => ({ p, estimate: re2SizeEstimate(p), size: RE2JS.compile(p).programSize() }))
      .filter(({ estimate, size }) => estimate > 2 * size + 8 || size > 2 * estimate);
    expect(off).toEqual([]);
  });
});
