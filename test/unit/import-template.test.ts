import { describe, expect, it } from 'vitest';
import { buildImportedDocument } from '../../shared/domain/oas-import';
import { deepMerge, mergeTemplate } from '../../shared/domain/template-merge';
import { petstore, statusOf } from './import-fixtures';

type Any = Record<string, any>;

const template = () => ({
  openapi: '3.0.3',
  info: { title: 'Template title', version: '0.0.1', description: 'from template' },
  servers: [{ url: 'https://template.example' }, { url: 'https://second.template.example' }],
  tags: [{ name: 'a' }, { name: 'b' }],
  paths: {
    '/status': { get: { operationId: 'status', responses: { '200': { description: 'ok' } } } },
    '/pets': { get: { summary: 'template summary', operationId: 'templateList', responses: {} } },
  },
  'x-gw-api-gateway': {
    server: { listenPath: { value: '/from-template/', strip: false } },
    middleware: {
      global: { cache: { enabled: true, cacheAllSafeRequests: true, timeout: 60 } },
      operations: { listPets: { requestSizeLimit: { enabled: true, value: 1024 } } },
    },
  },
});

describe('mergeTemplate', () => {
  it('keeps the template paths and middleware; the document wins on clashes', () => {
    const merged = mergeTemplate(template(), structuredClone(petstore)) as Any;
    expect(merged.info).toEqual({ title: 'Petstore', version: '1.0.0', description: 'from template' });
    expect(merged.paths['/status']).toEqual(template().paths['/status']);
    // Objects merge member by member: the document's operationId wins, the template's summary stays.
    expect(merged.paths['/pets'].get.operationId).toBe('listPets');
    expect(merged.paths['/pets'].get.summary).toBe('template summary');
    expect(merged['x-gw-api-gateway']).toEqual(template()['x-gw-api-gateway']);
  });

  it("replaces the template's arrays with the document's", () => {
    const merged = mergeTemplate(template(), { ...structuredClone(petstore), tags: [{ name: 'z' }] }) as Any;
    expect(merged.servers).toEqual(petstore.servers);
    expect(merged.tags).toEqual([{ name: 'z' }]);
  });

  it('changes neither input and skips __proto__ members', () => {
    const t = template();
    const d = structuredClone(petstore);
    mergeTemplate(t, d);
    expect(t).toEqual(template());
    expect(d).toEqual(petstore);
    const evil = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const out = deepMerge({ b: 2 }, evil) as Any;
    expect(out).toEqual({ a: 1, b: 2 });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Any).polluted).toBeUndefined();
  });
});

describe('template layer in the generated definition', () => {
  it('defaults < template extension < query flags', () => {
    const merged = mergeTemplate(template(), structuredClone(petstore));
    const gw = buildImportedDocument(merged, { allowList: true })['x-gw-api-gateway'] as Any;
    // generated defaults remain where the template is silent
    expect(gw.info).toEqual({ name: 'Petstore', state: { active: true, internal: false } });
    expect(gw.upstream.url).toBe('https://api.pets.example.com/v1');
    // the template's extension beats the defaults
    expect(gw.server.listenPath).toEqual({ value: '/from-template/', strip: false });
    expect(gw.middleware.global.cache).toEqual({ enabled: true, cacheAllSafeRequests: true, timeout: 60 });
    expect(gw.middleware.operations.listPets).toEqual({ requestSizeLimit: { enabled: true, value: 1024 }, allow: { enabled: true } });
    expect(gw.middleware.operations.status).toEqual({ allow: { enabled: true } });

    // and an explicit query flag beats the template
    const gw2 = buildImportedDocument(merged, { listenPath: '/q/', upstreamURL: 'http://q.example' })['x-gw-api-gateway'] as Any;
    expect(gw2.server.listenPath).toEqual({ value: '/q/', strip: false });
    expect(gw2.upstream.url).toBe('http://q.example');
  });

  it("a template's upstream makes unusable document servers acceptable", () => {
    const t = template() as Any;
    t['x-gw-api-gateway'].upstream = { url: 'http://template-upstream.example' };
    delete t.servers;
    const d = structuredClone(petstore) as Any;
    delete d.servers;
    const gw = buildImportedDocument(mergeTemplate(t, d), {})['x-gw-api-gateway'] as Any;
    expect(gw.upstream.url).toBe('http://template-upstream.example');
  });

  it('a template whose extension is malformed is refused with 400', async () => {
    const t = template() as Any;
    t['x-gw-api-gateway'].info = { state: { active: 'yes' } };
    expect(await statusOf(() => buildImportedDocument(mergeTemplate(t, structuredClone(petstore)), {}))).toBe(400);
  });
});
