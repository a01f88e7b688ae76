import { describe, expect, it } from 'vitest';
import { importUrlOf, parseFetchedDocument, parseOasBody, parseYaml, rejectGatewayExtension, validateOpenApi } from '../../shared/domain/oas-parse';
import { errorOf, petstore, petstoreJson, petstoreYaml, statusOf } from './import-fixtures';

describe('parseOasBody', () => {
  it('reads the same petstore as JSON and as YAML', () => {
    const fromJson = parseOasBody(petstoreJson, 'application/json');
    const fromYaml = parseOasBody(petstoreYaml, 'application/x-yaml');
    expect(fromJson).toEqual(petstore);
    expect(fromYaml).toEqual(fromJson);
  });

  it('treats a missing or empty Content-Type as JSON and ignores parameters', () => {
    expect(parseOasBody(petstoreJson, undefined)).toEqual(petstore);
    expect(parseOasBody(petstoreJson, '')).toEqual(petstore);
    expect(parseOasBody(petstoreJson, 'application/json; charset=utf-8')).toEqual(petstore);
    expect(parseOasBody(petstoreYaml, 'Application/X-YAML; charset=utf-8')).toEqual(petstore);
    for (const t of ['application/yaml', 'text/yaml']) expect(parseOasBody(petstoreYaml, t)).toEqual(petstore);
  });

  it('refuses other media types with 415', async () => {
    expect(await statusOf(() => parseOasBody(petstoreJson, 'text/plain'))).toBe(415);
    expect(await statusOf(() => parseOasBody(petstoreJson, 'application/xml'))).toBe(415);
    expect(await statusOf(() => parseOasBody(petstoreJson, 'multipart/form-data; boundary=x'))).toBe(415);
  });

  it('answers 400 for malformed JSON or YAML, empty bodies and non-objects', async () => {
    expect(await statusOf(() => parseOasBody('{"openapi":', 'application/json'))).toBe(400);
    expect(await statusOf(() => parseOasBody('a: [1\nb: 2', 'application/x-yaml'))).toBe(400);
    expect(await statusOf(() => parseOasBody('a: 1\na: 2\n', 'application/x-yaml'))).toBe(400);
    expect(await statusOf(() => parseOasBody('x:\n  1: a\n  "1": b\n', 'application/x-yaml'))).toBe(400);
    expect(await statusOf(() => parseOasBody('a: 1\n---\nb: 2\n', 'application/x-yaml'))).toBe(400);
    expect(await statusOf(() => parseOasBody('', 'application/json'))).toBe(400);
    expect(await statusOf(() => parseOasBody('  ', 'application/x-yaml'))).toBe(400);
    expect(await statusOf(() => parseOasBody('[1,2]', 'application/json'))).toBe(400);
    expect(await statusOf(() => parseOasBody('- 1\n- 2\n', 'application/x-yaml'))).toBe(400);
    expect(await statusOf(() => parseOasBody('"text"', 'application/json'))).toBe(400);
  });
});

describe('parseYaml safety', () => {
  it('refuses custom tags instead of reading them as text', async () => {
    const e = await errorOf(() => parseYaml('a: !!js/function "function () {}"\n'));
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/tag/i);
  });

  it('refuses an alias bomb', async () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]',
    ].join('\n');
    expect(await statusOf(() => parseYaml(bomb))).toBe(400);
  });

  it('keeps a few aliases working', () => {
    expect(parseYaml('a: &x {k: 1}\nb: *x\n')).toEqual({ a: { k: 1 }, b: { k: 1 } });
  });

  it('counts aliases per document, not per anchor: 100 in all are read, 101 are 400', async () => {
    // Five anchors, 20 aliases each: the library's own count (per anchor) would take 5 x 99.
    const spread = (n: number) =>
      [...[1, 2, 3, 4, 5].map((i) => `a${i}: &a${i} v${i}`), `l: [${Array.from({ length: n }, (_, i) => `*a${(i % 5) + 1}`).join(', ')}]`].join('\n');
    expect((parseYaml(spread(100)) as { l: string[] }).l).toHaveLength(100);
    const e = await errorOf(() => parseYaml(spread(101)));
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/more than 100 aliases in the document/);
  });

  // The large alias bomb (5 anchors x 99 aliases of a 900 KB string) is refused through HTTP,
  // with nothing stored: test/e2e/parse-limits.test.ts.
  it('measures the expanded document as JSON: over 5 MB is 413, whatever the alias count', async () => {
    // 100 aliases of 60 KB: 6 MB once expanded, from 60 KB of YAML.
    const anchors = [1, 2, 3, 4, 5].map((i) => `s${i}: &a${i} "${String(i).repeat(60_000)}"`);
    const text = [...anchors, `l: [${Array.from({ length: 100 }, (_, i) => `*a${(i % 5) + 1}`).join(',')}]`].join('\n');
    expect(text.length).toBeLessThan(400_000);
    const e = await errorOf(() => parseYaml(text));
    expect(e.status).toBe(413);
    expect(e.message).toMatch(/expands to more than 5 MB of JSON/);
    // The same aliases of a shorter anchor stay within the limit and are read.
    const small = [...[1, 2, 3, 4, 5].map((i) => `s${i}: &a${i} "${String(i).repeat(40_000)}"`), text.slice(text.indexOf('\nl: ') + 1)].join('\n');
    expect((parseYaml(small) as { l: string[] }).l[99]).toHaveLength(40_000);
  });

  it('refuses an alias inside its own anchor (a cycle) instead of walking it forever', async () => {
    expect([400, 413]).toContain(await statusOf(() => parseYaml('a: &a [*a]\n')));
    expect([400, 413]).toContain(await statusOf(() => parseYaml('a: &a {b: *a}\n')));
  });

  it('reports a syntax error with its line and column without the library pretty errors', async () => {
    const e = await errorOf(() => parseYaml('openapi: 3.0.3\ninfo: [\n'));
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/^Malformed YAML body: .+ at line \d+, column \d+$/);
    // The library's pretty errors trim the line with /[\n\r]+$/: 39 s for 100,000 CRs. The
    // proof that nothing here runs it is test/unit/regex-safety.test.ts (prettyErrors off); this
    // only has to finish within the test's timeout, far below that.
    const cr = await errorOf(() => parseYaml(`a: [\n${'\r'.repeat(200_000)}x: : :\n`));
    expect(cr.status).toBe(400);
  });

  it('refuses prototype keys, merge keys do not merge, nesting is bounded', async () => {
    expect(await statusOf(() => parseYaml('__proto__: {polluted: true}\n'))).toBe(400);
    expect(await statusOf(() => parseYaml('constructor: {prototype: {polluted: true}}\n'))).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(parseYaml('constructor: {type: string}\n')).toEqual({ constructor: { type: 'string' } });
    expect(await statusOf(() => parseYaml(`a: ${'['.repeat(100)}${']'.repeat(100)}`))).toBe(400);
  });

  it('reads YAML 1.2 core scalars (no 1.1 surprises such as yes -> true)', () => {
    expect(parseYaml('a: yes\nb: 1.0.0\nc: 2001-01-01\n')).toEqual({ a: 'yes', b: '1.0.0', c: '2001-01-01' });
  });
});

describe('validateOpenApi and the import checks', () => {
  it('bounds the members the validator checks with format regexes before it runs (URLs 2,048)', async () => {
    const long = `https://up.example.com/${'a'.repeat(2048)}`;
    const cases: Array<[Record<string, any>, string]> = [
      [{ servers: [{ url: long }] }, 'body.servers.0.url'],
      [{ paths: { '/p': { $ref: `#/${'%'.repeat(3000)}` } } }, 'body.paths./p.$ref'],
      [{ externalDocs: { url: long } }, 'body.externalDocs.url'],
      [{ info: { title: 't', version: '1', contact: { email: `${'a'.repeat(300)}@x.example` } } }, 'body.info.contact.email'],
    ];
    for (const [extra, path] of cases) {
      const doc = { ...structuredClone(petstore), ...extra };
      const e = await errorOf(() => validateOpenApi(doc));
      expect(e.status, path).toBe(400);
      expect(e.details, path).toEqual([{ path, message: expect.stringMatching(/longer than \d+ characters/) }]);
    }
    // Examples, defaults and extensions are free values: a long "url" there is not a URL member.
    const free = structuredClone(petstore) as Record<string, any>;
    free['x-links'] = { url: long };
    free.components.schemas.Pet.example = { url: long };
    await expect(validateOpenApi(free)).resolves.toBeUndefined();
  });

  it('accepts the petstore (3.0) and a minimal 3.1 document', async () => {
    await expect(validateOpenApi(structuredClone(petstore))).resolves.toBeUndefined();
    await expect(validateOpenApi({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} })).resolves.toBeUndefined();
  });

  it('answers 400 naming the problem and its path', async () => {
    const e = await errorOf(() => validateOpenApi({ openapi: '3.0.3', info: { title: 'x' }, paths: {} }));
    expect(e.status).toBe(400);
    expect(e.message).toContain('body.info');
    expect(e.message).toContain('version');
    expect(e.details?.[0]).toEqual({ path: 'body.info', message: "must have required property 'version'" });
  });

  it('reports an unresolvable $ref', async () => {
    const doc = structuredClone(petstore) as Record<string, any>;
    doc.paths['/pets'].post.requestBody.content['application/json'].schema = { $ref: '#/components/schemas/Nope' };
    const e = await errorOf(() => validateOpenApi(doc));
    expect(e.status).toBe(400);
    expect(e.message).toContain('Nope');
  });

  it('refuses Swagger 2.0 and documents without an OpenAPI 3 version', async () => {
    expect(await statusOf(() => validateOpenApi({ swagger: '2.0', info: { title: 'x', version: '1' }, paths: {} }))).toBe(400);
    const e = await errorOf(() => validateOpenApi({ info: { title: 'x', version: '1' }, paths: {} }));
    expect(e.details?.[0]?.path).toBe('body.openapi');
    expect(await statusOf(() => validateOpenApi({ openapi: 'petstore.json' }))).toBe(400);
  });

  it('refuses a body that carries x-gw-api-gateway, before validating it', async () => {
    const doc = { ...structuredClone(petstore), 'x-gw-api-gateway': { info: { name: 'x' } } };
    const e = await errorOf(() => rejectGatewayExtension(doc));
    expect(e.status).toBe(400);
    expect(e.details?.[0]?.path).toBe('body.x-gw-api-gateway');
    expect(() => rejectGatewayExtension(structuredClone(petstore))).not.toThrow();
    await expect(validateOpenApi(structuredClone(petstore))).resolves.toBeUndefined();
  });

  it('recognises a {"url"} body and nothing else as a URL import', async () => {
    expect(importUrlOf({ url: 'https://example.com/o.json' })).toBe('https://example.com/o.json');
    expect(importUrlOf({ url: 'x', openapi: '3.0.3' })).toBeUndefined();
    expect(importUrlOf(structuredClone(petstore))).toBeUndefined();
    expect(await statusOf(() => importUrlOf({ url: 5 }))).toBe(400);
  });

  it('reads a fetched document whatever label the server put on it', () => {
    expect(parseFetchedDocument(petstoreJson, 'text/plain')).toEqual(petstore);
    expect(parseFetchedDocument(petstoreYaml, 'text/plain; charset=utf-8')).toEqual(petstore);
    expect(parseFetchedDocument(petstoreYaml, undefined)).toEqual(petstore);
    expect(parseFetchedDocument(petstoreJson, 'application/json')).toEqual(petstore);
  });
});

describe('YAML numbers', () => {
  it('refuses .inf and .nan rather than storing them as null', async () => {
    const { parseOasBody } = await import('../../shared/domain/oas-parse');
    const doc = (v: string) => `openapi: 3.0.3\ninfo:\n  title: t\n  version: '1'\n  x-n: ${v}\npaths: {}\n`;
    for (const v of ['.inf', '-.inf', '.nan']) expect(() => parseOasBody(doc(v), 'application/x-yaml')).toThrow(/out of range/);
    expect(() => parseOasBody(doc('1.5'), 'application/x-yaml')).not.toThrow();
  });
});
