/**
 * The gateway model (shared/domain/gateway-model.ts): what an installation's definitions ask of a
 * data plane, and the coverage table saying what each definition member becomes there.
 */
import type * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { recordFromClassic, recordFromOas } from '../../shared/domain/api-builders';
import { coverageOf, GATEWAY_MEMBERS } from '../../shared/domain/gateway-members';
import { gatewayModel, routeOf, upstreamOf } from '../../shared/domain/gateway-model';
import { classicApiSchema } from '../../shared/schemas/api-classic';

const NOW = '2026-11-28T00:00:00.000Z';
type Json = Record<string, unknown>;
const classic = (apiId: string, org: string, def: Json) => recordFromClassic({ api_id: apiId, org_id: org, ...def }, NOW);
const on = (listen_path: string, target_url = 'http://up.example:8080/base/', extra: Json = {}) => ({ proxy: { listen_path, target_url, ...extra } });

describe('the gateway model', () => {
  it('per host, longest listen path first, with upstream, path handling, key, headers, limits and CORS', () => {
    const apis = [
      classic('books', 'acme', {
        ...on('/books/', 'https://books.internal/v1/', { strip_listen_path: true, preserve_host_header: true }),
        auth: { auth_header_name: 'X-Api-Key', use_param: true, param_name: 'k' },
        CORS: { enable: true, allowed_origins: ['https://app.example'], allowed_methods: ['GET'], max_age: 600 },
        version_data: {
          default_version: 'Default',
          versions: {
            Default: {
              global_headers: { 'X-From': 'gw' },
              global_headers_remove: ['Cookie'],
              global_size_limit: 1024,
              extended_paths: { hard_timeouts: [{ path: '/', method: 'GET', timeout: 7 }] },
            },
          },
        },
      }),
      classic('admin', 'acme', on('/books/admin/')),
      classic('pets', 'acme', { ...on('/', 'http://pets.internal'), domain: 'pets.acme.example', use_keyless: true }),
      classic('lb', 'acme', on('/lb/', 'http://ignored', { enable_load_balancing: true, target_list: ['http://a:1', 'http://b:2/x'] })),
    ];
    const model = gatewayModel(apis, new Map([['pets.acme.example', 'acme']]));
    expect(model.skipped).toEqual([]);
    expect(model.hosts.map((h) => [h.host, h.routes.map((r) => r.listenPath)])).toEqual([
      ['', ['/books/admin', '/books', '/lb']],
      ['pets.acme.example', ['/']],
    ]);
    expect(model.hosts[0]!.routes[1]).toEqual({
      apiId: 'books',
      orgId: 'acme',
      listenPath: '/books',
      upstreams: [{ scheme: 'https', host: 'books.internal', port: 443, basePath: '/v1' }],
      stripListenPath: true,
      preserveHost: true,
      key: { keyless: false, header: 'X-Api-Key', queryParam: 'k' },
      requestHeaders: { add: { 'X-From': 'gw' }, remove: ['Cookie'] },
      bodyLimitBytes: 1024,
      upstreamTimeoutSeconds: 7,
      cors: {
        allowedOrigins: ['https://app.example'],
        allowedMethods: ['GET'],
        allowedHeaders: [],
        exposedHeaders: [],
        allowCredentials: false,
        maxAgeSeconds: 600,
        optionsPassthrough: false,
      },
    });
    expect(model.hosts[0]!.routes[2]!.upstreams.map((u) => `${u.host}:${u.port}${u.basePath}`)).toEqual(['a:1', 'b:2/x']);
    expect(model.hosts[1]!.routes[0]!.key).toEqual({ keyless: true });
  });

  it('an OAS API routes from its document: listen path, upstream, header rules and its apiKey scheme', () => {
    const api = recordFromOas(
      {
        openapi: '3.0.3',
        info: { title: 'o', version: '1' },
        paths: {},
        components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } },
        'x-gw-api-gateway': {
          info: { id: 'o', orgId: 'acme', state: { active: true } },
          server: { listenPath: { value: '/o/', strip: true }, authentication: { enabled: true, securitySchemes: { key: { enabled: true } } } },
          upstream: { url: 'http://o.internal/api' },
          middleware: { global: { transformRequestHeaders: { enabled: true, add: [{ name: 'X-A', value: '1' }], remove: ['X-B'] } } },
        },
      },
      NOW,
    );
    const [route] = gatewayModel([api], new Map()).hosts[0]!.routes;
    expect(route).toMatchObject({
      apiId: 'o',
      listenPath: '/o',
      stripListenPath: true,
      upstreams: [{ scheme: 'http', host: 'o.internal', port: 80, basePath: '/api' }],
      key: { keyless: false, header: 'X-Key' },
      requestHeaders: { add: { 'X-A': '1' }, remove: ['X-B'] },
    });
  });

  it('leaves out inactive, internal and listen-path-less APIs, and claims that break the routing rules, saying why', () => {
    const apis = [
      classic('off', 'acme', { ...on('/off/'), active: false }),
      classic('hidden', 'acme', { ...on('/hidden/'), internal: true }),
      classic('nowhere', 'acme', {}),
      classic('root', 'evil', on('/')),
      classic('squat', 'evil', { ...on('/'), domain: 'acme.example' }),
      classic('books', 'acme', on('/books/')),
      classic('intruder', 'evil', on('/books/internal/')),
      classic('ftp', 'acme', on('/ftp/', 'ftp://files.example')),
      classic('creds', 'acme', on('/creds/', 'https://u:p@x.example')),
      classic('blank', 'acme', on('/blank/', '')),
    ];
    const model = gatewayModel(apis, new Map([['acme.example', 'acme']]));
    expect(model.hosts.map((h) => [h.host, h.routes.map((r) => r.apiId)])).toEqual([['', ['books']]]);
    expect(model.skipped).toEqual([
      { apiId: 'blank', orgId: 'acme', reason: 'it names no upstream (proxy.target_url)' },
      { apiId: 'creds', orgId: 'acme', reason: 'its upstream carries credentials in its URL (send them as header rules instead)' },
      { apiId: 'ftp', orgId: 'acme', reason: 'its upstream uses ftp: (only http and https are proxied)' },
      { apiId: 'intruder', orgId: 'evil', reason: 'its claim breaks the routing rules (nests with another organisation)' },
      { apiId: 'off', orgId: 'acme', reason: 'it is inactive' },
      { apiId: 'root', orgId: 'evil', reason: 'its claim breaks the routing rules (root on the shared hosts)' },
      { apiId: 'squat', orgId: 'evil', reason: 'its claim breaks the routing rules (domain not granted)' },
    ]);
  });

  it('reads upstream URLs as a gateway proxies to them', () => {
    expect(upstreamOf('http://a.example')).toEqual({ scheme: 'http', host: 'a.example', port: 80, basePath: '' });
    expect(upstreamOf('https://a.example:8443/x/y/')).toEqual({ scheme: 'https', host: 'a.example', port: 8443, basePath: '/x/y' });
    expect(upstreamOf('not a url')).toMatch(/not an absolute URL/);
    expect(typeof routeOf(classic('x', 'o', on('/x/')), '/x')).toBe('object');
  });
});

/** Every member path of the classic schema, two levels into objects (maps and arrays are leaves). */
function memberPaths(schema: z.ZodType, prefix = '', depth = 0): string[] {
  let s: any = schema;
  while (s?.def?.innerType) s = s.def.innerType;
  const shape = s?.def?.shape as Record<string, z.ZodType> | undefined;
  if (!shape || depth > 1) return prefix ? [prefix] : [];
  return Object.entries(shape).flatMap(([k, v]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    const nested = memberPaths(v, path, depth + 1);
    return [path, ...nested.filter((p) => p !== path)];
  });
}

describe('what each definition member becomes (GATEWAY_MEMBERS)', () => {
  it('covers every member of the classic definition, directly or by its parent', () => {
    const paths = memberPaths(classicApiSchema);
    expect(paths.length).toBeGreaterThan(150);
    expect(paths.filter((p) => !coverageOf(p))).toEqual([]);
  });

  it('names the routing members honoured, and says why the others are not', () => {
    for (const m of ['proxy.listen_path', 'proxy.target_url', 'proxy.strip_listen_path', 'domain', 'active', 'use_keyless', 'CORS']) {
      expect(coverageOf(m)?.status, m).toBe('honoured');
    }
    expect(coverageOf('version_data.versions.Default.global_headers')?.status).toBe('honoured');
    expect(coverageOf('version_data.versions.v2.paths')?.status).toBe('ignored');
    expect(Object.values(GATEWAY_MEMBERS).every((c) => c.note.length > 10)).toBe(true);
  });
});
