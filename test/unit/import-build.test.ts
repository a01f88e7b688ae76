import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyImportFlags,
  buildImportedDocument,
  buildImportedGateway,
  operationKey,
  substituteVariables,
  upstreamFromServers,
} from '../../shared/domain/oas-import';
import { parseOasBody } from '../../shared/domain/oas-parse';
import { importOptionsOf, importQuerySchema } from '../../shared/schemas/import';
import { streamsBodySchema } from '../../shared/schemas/streams';
import { errorOf, petstore, petstoreJson, petstoreYaml, statusOf } from './import-fixtures';

type Any = Record<string, any>;
const doc = () => structuredClone(petstore) as Any;
const ALL_OPS = ['listPets', 'petsPOST', 'pets/{id}GET', 'deletePet', 'health', 'uploadHealth'];

describe('generated defaults', () => {
  it('JSON and YAML imports give the same stored document', () => {
    const a = buildImportedDocument(parseOasBody(petstoreJson, 'application/json'), {});
    const b = buildImportedDocument(parseOasBody(petstoreYaml, 'application/x-yaml'), {});
    expect(b).toEqual(a);
  });

  it('sets name, state, listen path and upstream from the document', () => {
    const gw = buildImportedGateway(doc(), {});
    expect(gw).toEqual({
      info: { name: 'Petstore', state: { active: true, internal: false } },
      server: { listenPath: { value: '/petstore/', strip: true } },
      upstream: { url: 'https://api.pets.example.com/v1' },
    });
  });

  it('adds no middleware and no authentication without flags', () => {
    const gw = buildImportedGateway(doc(), {}) as Any;
    expect(gw.middleware).toBeUndefined();
    expect(gw.server.authentication).toBeUndefined();
    expect(gw.server.customDomain).toBeUndefined();
  });

  it('fills missing operationIds with the gateway key and keeps the rest of the document', () => {
    const out = buildImportedDocument(doc(), {}) as Any;
    expect(out.paths['/pets'].post.operationId).toBe('petsPOST');
    expect(out.paths['/pets/{id}'].get.operationId).toBe('pets/{id}GET');
    expect(out.paths['/pets'].get.operationId).toBe('listPets');
    const { 'x-gw-api-gateway': _gw, ...rest } = out;
    const expected = doc();
    expected.paths['/pets'].post.operationId = 'petsPOST';
    expected.paths['/pets/{id}'].get.operationId = 'pets/{id}GET';
    expect(rest).toEqual(expected);
  });

  it('does not change its input', () => {
    const input = doc();
    buildImportedDocument(input, { allowList: true, authentication: true });
    expect(input).toEqual(petstore);
  });

  it('operationKey: operationId, else path without leading slash + upper-case method', () => {
    expect(operationKey('/pets', 'get', {})).toBe('petsGET');
    expect(operationKey('/pets/{id}', 'delete', {})).toBe('pets/{id}DELETE');
    expect(operationKey('/pets', 'get', { operationId: 'x' })).toBe('x');
  });
});

describe('upstream from servers', () => {
  it('substitutes exactly as the regex /\\{([^}]+)\\}/g it replaces did, on any mix of braces', () => {
    const byRegex = (url: string, vars: Record<string, { default: string }>) => {
      let missing = false;
      const out = url.replace(/\{([^}]+)\}/g, (_m, name: string) => {
        if (!Object.hasOwn(vars, name)) {
          missing = true;
          return '';
        }
        return vars[name]!.default;
      });
      return missing ? undefined : out;
    };
    const vars = { a: { default: 'A' }, 'a{b': { default: 'AB' }, '': { default: 'E' }, x: { default: '' } };
    fc.assert(
      fc.property(fc.array(fc.constantFrom('{', '}', 'a', 'b', 'x', '/', 'q'), { maxLength: 40 }), (chars) => {
        const url = chars.join('');
        expect(substituteVariables(url, vars)).toBe(byRegex(url, vars));
      }),
      { seed: 20, numRuns: 2000 },
    );
  });

  it('is linear at its worst case: 2,048 unclosed braces, the longest URL taken', () => {
    // The regex took 37 s on 200,000 braces (quadratic); one scan takes microseconds. The bound
    // on the length is what the test can assert without a clock.
    const worst = `http://h/${'{'.repeat(2048 - 'http://h/'.length)}`;
    expect(substituteVariables(worst, {})).toBe(worst);
    const closed = `http://h/${'{a}'.repeat(600)}`;
    expect(substituteVariables(closed, { a: { default: 'x' } })).toBe(`http://h/${'x'.repeat(600)}`);
  });

  it('refuses a server URL over 2,048 characters, before or after its variables are filled in (400 with the path)', async () => {
    const e = await errorOf(() => upstreamFromServers({ servers: [{ url: `http://h/${'{'.repeat(200_000)}` }] }));
    expect(e.status).toBe(400);
    expect(e.details).toEqual([{ path: 'body.servers.0.url', message: 'longer than 2048 characters' }]);
    const grown = await errorOf(() =>
      upstreamFromServers({ servers: [{ url: `http://{h}/${'{p}'.repeat(100)}`, variables: { h: { default: 'h' }, p: { default: 'p'.repeat(1000) } } }] }),
    );
    expect(grown.status).toBe(400);
    expect(grown.message).toMatch(/once its variables are filled in/);
  });

  it('substitutes variable defaults', () => {
    expect(upstreamFromServers({ servers: [{ url: 'http://{h}:{p}/b', variables: { h: { default: 'up.example' }, p: { default: '8080' } } }] })).toBe(
      'http://up.example:8080/b',
    );
  });

  it('is 400 when no server is usable, unless upstreamURL is given', async () => {
    for (const servers of [undefined, [], [{ url: '/relative' }], [{ url: 'https://{x}.example.com' }], [{ url: 'ftp://x.example.com' }]]) {
      const d = doc();
      if (servers === undefined) delete d.servers;
      else d.servers = servers;
      const e = await errorOf(() => buildImportedGateway(d, {}));
      expect(e.status).toBe(400);
      expect(e.message).toMatch(/upstream/i);
      expect(buildImportedGateway(d, { upstreamURL: 'http://u.example' }).upstream).toEqual({ url: 'http://u.example' });
    }
  });

  it('takes the first usable server', () => {
    const d = doc();
    d.servers = [{ url: '/v1' }, { url: 'https://second.example.com' }];
    expect((buildImportedGateway(d, {}) as Any).upstream.url).toBe('https://second.example.com');
  });
});

describe('query overrides', () => {
  it('upstreamURL, listenPath and customDomain', () => {
    const gw = buildImportedGateway(doc(), {
      upstreamURL: 'http://internal.example:9000',
      listenPath: '/petstore/',
      customDomain: 'pets.example.com',
    }) as Any;
    expect(gw.upstream.url).toBe('http://internal.example:9000');
    expect(gw.server.listenPath).toEqual({ value: '/petstore/', strip: true });
    expect(gw.server.customDomain).toEqual({ enabled: true, name: 'pets.example.com' });
  });

  it('allowList lands on every operation', () => {
    const gw = buildImportedGateway(doc(), { allowList: true }) as Any;
    expect(Object.keys(gw.middleware.operations).sort()).toEqual([...ALL_OPS].sort());
    for (const op of ALL_OPS) expect(gw.middleware.operations[op]).toEqual({ allow: { enabled: true } });
  });

  it('validateRequest lands only on operations with parameters or a JSON body', () => {
    const gw = buildImportedGateway(doc(), { validateRequest: true }) as Any;
    const ops = gw.middleware.operations;
    expect(Object.keys(ops).sort()).toEqual(['deletePet', 'listPets', 'pets/{id}GET', 'petsPOST']);
    for (const k of Object.keys(ops)) expect(ops[k]).toEqual({ validateRequest: { enabled: true, errorResponseCode: 422 } });
  });

  it('mockResponse lands only on operations whose responses hold an example or schema', () => {
    const gw = buildImportedGateway(doc(), { mockResponse: true }) as Any;
    const ops = gw.middleware.operations;
    // uploadHealth: its default response is a $ref to a response with `examples`.
    expect(Object.keys(ops).sort()).toEqual(['listPets', 'pets/{id}GET', 'uploadHealth']);
    for (const k of Object.keys(ops)) expect(ops[k]).toEqual({ mockResponse: { enabled: true, fromOASExamples: { enabled: true } } });
  });

  it('flags combine per operation', () => {
    const ops = (buildImportedGateway(doc(), { allowList: true, validateRequest: true, mockResponse: true }) as Any).middleware.operations;
    expect(ops.health).toEqual({ allow: { enabled: true } });
    expect(Object.keys(ops.listPets).sort()).toEqual(['allow', 'mockResponse', 'validateRequest']);
    expect(Object.keys(ops.petsPOST).sort()).toEqual(['allow', 'validateRequest']);
  });

  it('false flags add nothing on a fresh import', () => {
    const gw = buildImportedGateway(doc(), { allowList: false, validateRequest: false, mockResponse: false }) as Any;
    expect(gw.middleware.operations).toEqual({});
  });

  it('authentication=true enables the schemes the document requires', () => {
    const auth = (buildImportedGateway(doc(), { authentication: true }) as Any).server.authentication;
    expect(auth).toEqual({
      enabled: true,
      securitySchemes: { api_key: { enabled: true, header: { enabled: true, name: 'X-Api-Key' } } },
    });
  });

  it('authentication=true without top-level security takes every defined scheme', () => {
    const d = doc();
    delete d.security;
    const auth = (buildImportedGateway(d, { authentication: true }) as Any).server.authentication;
    expect(Object.keys(auth.securitySchemes).sort()).toEqual(['api_key', 'basic']);
    expect(auth.securitySchemes.basic).toEqual({ enabled: true });
  });

  it('authentication=true with no scheme at all is 400; false disables', async () => {
    const d = doc();
    delete d.security;
    delete d.components.securitySchemes;
    expect(await statusOf(() => buildImportedGateway(d, { authentication: true }))).toBe(400);
    expect((buildImportedGateway(d, { authentication: false }) as Any).server.authentication).toEqual({ enabled: false });
  });
});

describe('applyImportFlags on an existing definition (streams PATCH)', () => {
  const existing = () => {
    const d = buildImportedDocument(doc(), { validateRequest: true }) as Any;
    d['x-gw-api-gateway'].middleware.operations.listPets.validateRequest.errorResponseCode = 400;
    d['x-gw-api-gateway'].server.authentication = { enabled: true, securitySchemes: { api_key: { enabled: true } } };
    d['x-gw-api-gateway'].upstream.url = 'http://kept.example';
    return d;
  };

  it('switches existing middleware off without creating new entries', () => {
    const out = applyImportFlags(existing(), { validateRequest: false, allowList: false }) as Any;
    const ops = out['x-gw-api-gateway'].middleware.operations;
    expect(ops.listPets.validateRequest).toEqual({ enabled: false, errorResponseCode: 400 });
    expect(ops.listPets.allow).toBeUndefined();
    expect(ops.health).toBeUndefined();
  });

  it('keeps a chosen error code when switching validation on, and leaves unrelated members', () => {
    const out = applyImportFlags(existing(), { validateRequest: true, listenPath: '/new/', authentication: false }) as Any;
    const gw = out['x-gw-api-gateway'];
    expect(gw.middleware.operations.listPets.validateRequest).toEqual({ enabled: true, errorResponseCode: 400 });
    expect(gw.server.listenPath).toEqual({ value: '/new/', strip: true });
    expect(gw.server.authentication).toEqual({ enabled: false, securitySchemes: { api_key: { enabled: true } } });
    expect(gw.upstream.url).toBe('http://kept.example');
    expect(gw.info.name).toBe('Petstore');
  });

  it('a $ref with a malformed percent-escape is 400 naming where it is, for every flag that follows references', async () => {
    const cases: Array<[Any, Parameters<typeof applyImportFlags>[1], string]> = [
      [{ '/bad': { $ref: '#/components/pathItems/%E0%A4%A' } }, { allowList: true }, 'body.paths./bad.$ref'],
      [{ '/pets': { post: { requestBody: { $ref: '#/components/requestBodies/%ZZ' } } } }, { validateRequest: true }, 'body.paths./pets.post.requestBody.$ref'],
      [{ '/pets': { get: { responses: { '200': { $ref: '#/components/responses/%' } } } } }, { mockResponse: true }, 'body.paths./pets.get.responses.200.$ref'],
    ];
    for (const [paths, flags, path] of cases) {
      const d = existing();
      d.paths = paths;
      const e = await errorOf(() => applyImportFlags(d, flags));
      expect(e.status, path).toBe(400);
      expect(e.details, path).toEqual([{ path, message: expect.stringMatching(/malformed percent-escape/) }]);
    }
    const d = existing();
    d.components.securitySchemes = { k: { $ref: '#/components/securitySchemes/%C0' } };
    d.security = [{ k: [] }];
    const e = await errorOf(() => applyImportFlags(d, { authentication: true }));
    expect(e.details).toEqual([{ path: 'body.components.securitySchemes.k.$ref', message: expect.stringMatching(/malformed/) }]);
    // A well-formed escape still resolves.
    const ok = existing();
    ok.components.pathItems = { 'a b': { get: { operationId: 'spaced', responses: {} } } };
    ok.paths = { '/spaced': { $ref: '#/components/pathItems/a%20b' } };
    expect((applyImportFlags(ok, { allowList: true }) as Any)['x-gw-api-gateway'].middleware.operations.spaced.allow).toEqual({ enabled: true });
  });
});

describe('query and streams schemas', () => {
  it('parses import query strings', () => {
    const q = importQuerySchema.parse({
      upstreamURL: 'https://u.example/x',
      listenPath: '/p/',
      customDomain: 'a.example.com',
      allowList: 'true',
      validateRequest: '0',
      mockResponse: '1',
      authentication: 'false',
      templateID: 'tmpl-1',
      base_api_id: 'base1',
      base_api_version_name: 'v1',
      new_version_name: 'v2',
      set_default: 'true',
    });
    expect(importOptionsOf(q)).toEqual({
      upstreamURL: 'https://u.example/x',
      listenPath: '/p/',
      customDomain: 'a.example.com',
      allowList: true,
      validateRequest: false,
      mockResponse: true,
      authentication: false,
    });
    expect(q.set_default).toBe(true);
    expect(importQuerySchema.parse({})).toEqual({});
  });

  it('refuses bad query values', () => {
    for (const bad of [
      { upstreamURL: 'file:///etc/passwd' },
      { upstreamURL: 'not a url' },
      { listenPath: 'no-slash' },
      { customDomain: 'a/b' },
      { allowList: 'yes' },
      { templateID: 'bad id!' },
      { base_api_id: '../x/' },
      { new_version_name: '' },
    ]) {
      expect(importQuerySchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('streams body needs x-gw-api-gateway and x-gw-streaming.streams, and keeps unknown members', () => {
    const base = { openapi: '3.0.3', info: { title: 's', version: '1' }, paths: {} };
    const good = { ...base, 'x-gw-api-gateway': { info: { name: 's' } }, 'x-gw-streaming': { streams: { a: {} }, extra: 1 }, 'x-other': true };
    const r = streamsBodySchema.safeParse(good);
    expect(r.success).toBe(true);
    expect(r.data).toEqual(good);
    const paths = (b: unknown) => {
      const res = streamsBodySchema.safeParse(b);
      return res.success ? [] : res.error.issues.map((i) => i.path.join('.'));
    };
    expect(paths({ ...base, 'x-gw-streaming': { streams: {} } })).toEqual(['x-gw-api-gateway']);
    expect(paths({ ...base, 'x-gw-api-gateway': {} })).toEqual(['x-gw-streaming']);
    expect(paths({ ...base, 'x-gw-api-gateway': {}, 'x-gw-streaming': {} })).toEqual(['x-gw-streaming.streams']);
  });
});
