import { describe, expect, it } from 'vitest';
import {
  checkImportDocument,
  importUrlOf,
  parseFetchedDocument,
  parseOasBody,
  parseYaml,
  validateOpenApi,
} from '../../shared/domain/oas-parse';
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

  it('refuses prototype keys, merge keys do not merge, nesting is bounded', async () => {
    expect(await statusOf(() => parseYaml('__proto__: {polluted: true}\n'))).toBe(400);
    expect(await statusOf(() => parseYaml('constructor: {prototype: {polluted: true}}\n'))).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(parseYaml('constructor: {type: string}\n')).toEqual({ constructor: { type: 'string' } });
    expect(await statusOf(() => parseYaml('a: ' + '['.repeat(100) + ']'.repeat(100)))).toBe(400);
  });

  it('reads YAML 1.2 core scalars (no 1.1 surprises such as yes -> true)', () => {
    expect(parseYaml('a: yes\nb: 1.0.0\nc: 2001-01-01\n')).toEqual({ a: 'yes', b: '1.0.0', c: '2001-01-01' });
  });
});

describe('validateOpenApi and the import checks', () => {
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
    const e = await errorOf(() => checkImportDocument(doc));
    expect(e.status).toBe(400);
    expect(e.details?.[0]?.path).toBe('body.x-gw-api-gateway');
    await expect(checkImportDocument(structuredClone(petstore))).resolves.toEqual(petstore);
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
