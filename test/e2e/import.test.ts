/**
 * POST /api/apis/oas/import (contract §8) through the local stage: JSON, YAML and URL
 * imports, generated defaults, every query flag, the refusals, and templates.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_LOOPBACK_ENV } from '../../shared/net/import-source';
import { onEmulator, startStage, type Stage } from '../support/stage';
import { petstore, petstoreJson, petstoreYaml } from '../unit/import-fixtures';

type Any = Record<string, any>;
const IMPORT = '/api/apis/oas/import';
const ALL_OPS = ['listPets', 'petsPOST', 'pets/{id}GET', 'deletePet', 'health', 'uploadHealth'];

let s: Stage;
let t: { orgId: string; key: string };
let docs: Server;
let docsUrl: string;

beforeAll(async () => {
  s = await startStage();
  t = await s.tenant();
  // A document server on loopback: only reachable through the test-only allowance.
  docs = createServer((req, res) => {
    if (req.url === '/petstore.yaml') {
      res.writeHead(200, { 'content-type': 'application/x-yaml' });
      res.end(petstoreYaml);
    } else if (req.url === '/petstore.json') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(petstoreJson);
    } else if (req.url === '/redirect') {
      res.writeHead(302, { location: 'http://10.0.0.1/petstore.json' });
      res.end();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => docs.listen(0, '127.0.0.1', r));
  docsUrl = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
});
afterEach(() => {
  delete process.env[TEST_LOOPBACK_ENV];
});
afterAll(async () => {
  await new Promise<void>((r) => docs.close(() => r()));
  await s.close();
});

const importDoc = (key: string, body: string, contentType: string | undefined, query = '') =>
  s.dash(key, 'POST', `${IMPORT}${query}`, body, contentType === undefined ? {} : { 'content-type': contentType });

let paths = 0;
/** A listen path no other import of this file takes (listen paths are unique per domain). */
const freshPath = () => `listenPath=/imported-${++paths}/`;
/** The query with a fresh listen path, unless it sets one. */
const withOwnPath = (query: string) => (query.includes('listenPath=') ? query : `${query}${query ? '&' : '?'}${freshPath()}`);

/** Imports with a fresh listen path unless `ownPath` is false (the default `/<slug of the title>/` or a template's path). */
async function imported(body: string, contentType = 'application/json', query = '', ownPath = true): Promise<{ id: string; api_id: string; doc: Any }> {
  const r = await importDoc(t.key, body, contentType, ownPath ? withOwnPath(query) : query);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const got = await s.gw('GET', `/gw/apis/oas/${r.body.ID}`);
  expect(got.status).toBe(200);
  return { id: r.body.Meta, api_id: r.body.ID, doc: got.body };
}

async function apiCount(key: string): Promise<number> {
  const r = await s.dash(key, 'GET', '/api/apis?p=-1');
  expect(r.status).toBe(200);
  return r.body.apis.length;
}

/** The stored document without the generated ids and the listen path, for comparing two imports. */
function withoutIds(doc: Any): Any {
  const copy = structuredClone(doc);
  delete copy['x-gw-api-gateway'].info.id;
  delete copy['x-gw-api-gateway'].info.dbId;
  delete copy['x-gw-api-gateway'].server.listenPath.value;
  return copy;
}

describe('import: document and generated defaults', () => {
  it('answers the status envelope with Meta = id and ID = api_id, and the API is in the caller org', async () => {
    const r = await importDoc(t.key, petstoreJson, 'application/json', `?${freshPath()}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      Status: 'OK',
      Message: 'API created',
      Meta: expect.stringMatching(/^[0-9a-f]{24}$/),
      ID: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const got = await s.gw('GET', `/gw/apis/oas/${r.body.ID}`);
    expect(got.body['x-gw-api-gateway'].info).toMatchObject({ id: r.body.ID, dbId: r.body.Meta, orgId: t.orgId });
    const list = await s.dash(t.key, 'GET', '/api/apis?p=-1');
    expect(list.body.apis.map((a: Any) => a.api_definition.api_id)).toContain(r.body.ID);
    const other = await s.tenant();
    const otherList = await s.dash(other.key, 'GET', '/api/apis?p=-1');
    expect(otherList.body.apis.map((a: Any) => a.api_definition.api_id)).not.toContain(r.body.ID);
  });

  it('stores the same definition for the same document as JSON, YAML and with no Content-Type', async () => {
    const a = await imported(petstoreJson, 'application/json');
    const b = await imported(petstoreYaml, 'application/x-yaml');
    // No Content-Type at all (fetch labels a string body text/plain; bytes go without one).
    const res = await fetch(`${s.url}${IMPORT}?${freshPath()}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}` },
      body: new TextEncoder().encode(petstoreJson),
    });
    expect(res.status).toBe(200);
    const c = await s.gw('GET', `/gw/apis/oas/${((await res.json()) as Any).ID}`);
    expect(withoutIds(b.doc)).toEqual(withoutIds(a.doc));
    expect(withoutIds(c.body)).toEqual(withoutIds(a.doc));
    expect(a.api_id).not.toBe(b.api_id);
  });

  it('generates the defaults: name, state, listen path /<slug of the title>/, strip, upstream from servers[0] with variables', async () => {
    const { doc } = await imported(petstoreJson, 'application/json', '', false);
    const gw = doc['x-gw-api-gateway'];
    expect(gw.info).toMatchObject({ name: 'Petstore', state: { active: true, internal: false } });
    expect(gw.server.listenPath).toEqual({ value: '/petstore/', strip: true });
    expect(gw.upstream).toEqual({ url: 'https://api.pets.example.com/v1' });
    expect(gw.server.customDomain).toBeUndefined();
    expect(gw.server.authentication).toBeUndefined();
    expect(gw.middleware).toBeUndefined();
    // The document itself is kept; operations without operationId get the gateway's key.
    expect(doc.info).toEqual(petstore.info);
    expect(doc.paths['/pets'].post.operationId).toBe('petsPOST');
    expect(doc.paths['/pets/{id}'].get.operationId).toBe('pets/{id}GET');
    expect(doc.components).toEqual(petstore.components);
  });

  it('each query override replaces its default', async () => {
    const up = await imported(petstoreJson, 'application/json', `?upstreamURL=${encodeURIComponent('http://backend.internal:8080/pets')}`);
    expect(up.doc['x-gw-api-gateway'].upstream.url).toBe('http://backend.internal:8080/pets');
    const lp = await imported(petstoreJson, 'application/json', '?listenPath=/pets-override/');
    expect(lp.doc['x-gw-api-gateway'].server.listenPath).toEqual({ value: '/pets-override/', strip: true });
    // A custom domain must be granted to the organisation (contract §13).
    expect((await s.admin('PUT', `/admin/organisations/${t.orgId}/domains/pets.example.com`)).status).toBe(200);
    const cd = await imported(petstoreJson, 'application/json', '?customDomain=pets.example.com');
    expect(cd.doc['x-gw-api-gateway'].server.customDomain).toEqual({ enabled: true, name: 'pets.example.com' });
    const auth = await imported(petstoreJson, 'application/json', '?authentication=true');
    expect(auth.doc['x-gw-api-gateway'].server.authentication).toEqual({
      enabled: true,
      securitySchemes: { api_key: { enabled: true, header: { enabled: true, name: 'X-Api-Key' } } },
    });
    // The classic form follows the OAS one.
    const classic = await s.gw('GET', `/gw/apis/${lp.api_id}`);
    expect(classic.body.proxy.listen_path).toBe('/pets-override/');
  });

  it('allowList lands on every operation, keyed by operationId or path+METHOD', async () => {
    const { doc } = await imported(petstoreJson, 'application/json', '?allowList=true');
    const ops = doc['x-gw-api-gateway'].middleware.operations;
    expect(Object.keys(ops).sort()).toEqual([...ALL_OPS].sort());
    for (const k of ALL_OPS) expect(ops[k]).toEqual({ allow: { enabled: true } });
  });

  it('validateRequest lands only on operations with parameters or a JSON body', async () => {
    const { doc } = await imported(petstoreYaml, 'application/x-yaml', '?validateRequest=1');
    const ops = doc['x-gw-api-gateway'].middleware.operations;
    expect(Object.keys(ops).sort()).toEqual(['deletePet', 'listPets', 'pets/{id}GET', 'petsPOST']);
    for (const k of Object.keys(ops)) expect(ops[k]).toEqual({ validateRequest: { enabled: true, errorResponseCode: 422 } });
  });

  it('mockResponse lands only on operations whose responses hold an example or a schema', async () => {
    const { doc } = await imported(petstoreJson, 'application/json', '?mockResponse=true');
    const ops = doc['x-gw-api-gateway'].middleware.operations;
    expect(Object.keys(ops).sort()).toEqual(['listPets', 'pets/{id}GET', 'uploadHealth']);
    for (const k of Object.keys(ops)) expect(ops[k]).toEqual({ mockResponse: { enabled: true, fromOASExamples: { enabled: true } } });
  });

  it('flags combine per operation', async () => {
    const { doc } = await imported(petstoreJson, 'application/json', '?allowList=true&validateRequest=true&mockResponse=true');
    const ops = doc['x-gw-api-gateway'].middleware.operations;
    expect(ops.health).toEqual({ allow: { enabled: true } });
    expect(Object.keys(ops.listPets).sort()).toEqual(['allow', 'mockResponse', 'validateRequest']);
    expect(Object.keys(ops.petsPOST).sort()).toEqual(['allow', 'validateRequest']);
    expect(Object.keys(ops.uploadHealth).sort()).toEqual(['allow', 'mockResponse']);
  });
});

describe('import: refusals store nothing', () => {
  it('a document with x-gw-api-gateway is 400', async () => {
    const before = await apiCount(t.key);
    const r = await importDoc(t.key, JSON.stringify({ ...petstore, 'x-gw-api-gateway': { info: { name: 'x' } } }), 'application/json');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ Status: 'Error', Meta: { errors: [{ path: 'body.x-gw-api-gateway' }] } });
    expect(await apiCount(t.key)).toBe(before);
  });

  it('an invalid OpenAPI document is 400 naming the problem and its path', async () => {
    const before = await apiCount(t.key);
    const bad = structuredClone(petstore) as Any;
    delete bad.paths['/pets'].get.responses;
    const r = await importDoc(t.key, JSON.stringify(bad), 'application/json');
    expect(r.status).toBe(400);
    expect(r.body.Message).toMatch(/^Invalid OpenAPI document: /);
    expect(r.body.Message).toContain('responses');
    expect(r.body.Meta.errors.some((e: Any) => e.path.startsWith('body.paths./pets.get'))).toBe(true);
    const yamlBad = await importDoc(t.key, 'openapi: 3.0.3\ninfo:\n  title: T\n', 'application/x-yaml');
    expect(yamlBad.status).toBe(400);
    expect(yamlBad.body.Message).toContain('paths');
    const malformed = await importDoc(t.key, 'openapi: [', 'application/x-yaml');
    expect(malformed.status).toBe(400);
    expect(await apiCount(t.key)).toBe(before);
  });

  it('text/plain is 415', async () => {
    const before = await apiCount(t.key);
    const r = await importDoc(t.key, petstoreJson, 'text/plain');
    expect(r.status).toBe(415);
    expect(r.body).toMatchObject({ Status: 'Error', Meta: null });
    expect(await apiCount(t.key)).toBe(before);
  });

  it('bad query values are 400', async () => {
    expect((await importDoc(t.key, petstoreJson, 'application/json', '?allowList=maybe')).status).toBe(400);
    expect((await importDoc(t.key, petstoreJson, 'application/json', '?upstreamURL=ftp://x')).status).toBe(400);
    expect((await importDoc(t.key, petstoreJson, 'application/json', '?listenPath=no-slash')).status).toBe(400);
  });

  it('a document without a usable server and no upstreamURL is 400', async () => {
    const doc = { ...structuredClone(petstore), servers: [{ url: '/relative' }] };
    const r = await importDoc(t.key, JSON.stringify(doc), 'application/json');
    expect(r.status).toBe(400);
    expect(r.body.Message).toContain('upstreamURL');
    const ok = await importDoc(t.key, JSON.stringify(doc), 'application/json', `?upstreamURL=https://up.example.com&${freshPath()}`);
    expect(ok.status).toBe(200);
  });
});

// The loopback allowance is this process's environment, set per test; the emulated functions see
// only the template's, so these run on the in-process stage only (the import route itself runs
// on the emulator in the tests above).
describe.skipIf(onEmulator)('import by URL', () => {
  it('imports a YAML document served by a local test server (test allowance on)', async () => {
    process.env[TEST_LOOPBACK_ENV] = '1';
    const { doc } = await imported(JSON.stringify({ url: `${docsUrl}/petstore.yaml` }), 'application/json', '?allowList=true');
    const direct = await imported(petstoreJson, 'application/json', '?allowList=true');
    expect(withoutIds(doc)).toEqual(withoutIds(direct.doc));
  });

  it('reads a JSON document served as text/plain', async () => {
    process.env[TEST_LOOPBACK_ENV] = '1';
    const { doc } = await imported(JSON.stringify({ url: `${docsUrl}/petstore.json` }));
    expect(doc.info.title).toBe('Petstore');
  });

  it('refuses metadata, loopback without the allowance, private, file: and redirects; nothing stored', async () => {
    const before = await apiCount(t.key);
    const refused = async (url: string, allow = false) => {
      if (allow) process.env[TEST_LOOPBACK_ENV] = '1';
      else delete process.env[TEST_LOOPBACK_ENV];
      const r = await importDoc(t.key, JSON.stringify({ url }), 'application/json');
      expect(r.status, `${url}: ${JSON.stringify(r.body)}`).toBeGreaterThanOrEqual(400);
      expect(r.status, url).toBeLessThan(500);
      expect(r.body.Status).toBe('Error');
      return r.body.Message as string;
    };
    expect(await refused('http://169.254.169.254/latest/meta-data/')).toMatch(/linkLocal|address/);
    expect(await refused(`${docsUrl}/petstore.yaml`)).toMatch(/loopback/);
    expect(await refused('http://10.0.0.1/openapi.json')).toMatch(/private/);
    expect(await refused('http://[::1]/openapi.json')).toMatch(/loopback/);
    expect(await refused('http://[::ffff:169.254.169.254]/')).toMatch(/linkLocal/);
    expect(await refused('file:///etc/passwd')).toMatch(/http or https/);
    // The allowance lets the first hop reach the loopback server, which redirects to a private address.
    expect(await refused(`${docsUrl}/redirect`, true)).toMatch(/redirect/);
    expect(await refused(`${docsUrl}/missing.yaml`, true)).toMatch(/404/);
    expect(await apiCount(t.key)).toBe(before);
  });
});

describe('import with a template (templateID)', () => {
  const template = {
    id: 'pets-template',
    name: 'pets template',
    kind: 'oas-template',
    data: {
      info: { title: 'Template title', version: '9.9.9', description: 'from the template' },
      paths: {
        '/status': { get: { operationId: 'status', responses: { '200': { description: 'up' } } } },
        '/pets': { get: { summary: 'template summary', operationId: 'templateListPets', responses: { '500': { description: 't' } } } },
      },
      tags: [{ name: 'template-tag' }],
      'x-gw-api-gateway': {
        middleware: {
          global: { cache: { enabled: true, cacheAllSafeRequests: true, timeout: 5 } },
          operations: { status: { requestSizeLimit: { enabled: true, value: 1024 } } },
        },
        server: { listenPath: { value: '/from-template/', strip: false } },
      },
    },
  };
  let templateDbId: string;

  beforeAll(async () => {
    const r = await s.dash(t.key, 'POST', '/api/assets', template);
    expect(r.status).toBe(200);
    templateDbId = r.body.Meta;
  });

  it('merges the template under the document: its paths and middleware present, the document wins', async () => {
    const doc = { ...structuredClone(petstore), tags: [{ name: 'doc-tag' }] };
    const { doc: stored } = await imported(JSON.stringify(doc), 'application/json', '?templateID=pets-template', false);
    expect(stored.paths['/status'].get.operationId).toBe('status');
    expect(stored.paths['/pets'].get.operationId).toBe('listPets');
    expect(stored.paths['/pets'].get.summary).toBe('template summary');
    expect(stored.paths['/pets'].get.responses['200']).toBeDefined();
    expect(stored.info.title).toBe('Petstore');
    expect(stored.info.description).toBe('from the template');
    expect(stored.tags).toEqual([{ name: 'doc-tag' }]);
    const gw = stored['x-gw-api-gateway'];
    expect(gw.middleware.global.cache).toEqual({ enabled: true, cacheAllSafeRequests: true, timeout: 5 });
    expect(gw.middleware.operations.status).toEqual({ requestSizeLimit: { enabled: true, value: 1024 } });
    expect(gw.server.listenPath).toEqual({ value: '/from-template/', strip: false });
    expect(gw.info.name).toBe('Petstore');
    expect(gw.info.orgId).toBe(t.orgId);
  });

  it('finds the template by _id too, and query flags win over the template', async () => {
    const { doc } = await imported(petstoreJson, 'application/json', `?templateID=${templateDbId}&listenPath=/q/`);
    expect(doc['x-gw-api-gateway'].server.listenPath).toEqual({ value: '/q/', strip: false });
    expect(doc['x-gw-api-gateway'].middleware.global.cache.enabled).toBe(true);
  });

  it('an unknown templateID, or one of another organisation, is 422 and stores nothing', async () => {
    const before = await apiCount(t.key);
    const r = await importDoc(t.key, petstoreJson, 'application/json', '?templateID=no-such-template');
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ Status: 'Error', Message: expect.stringContaining('no-such-template') });
    const other = await s.tenant();
    const foreign = await importDoc(other.key, petstoreJson, 'application/json', `?templateID=${templateDbId}`);
    expect(foreign.status).toBe(422);
    expect(await apiCount(t.key)).toBe(before);
    expect(await apiCount(other.key)).toBe(0);
  });
});
