import { describe, expect, it } from 'vitest';
import { classicApiSchema } from '../../shared/schemas/api-classic';
import { gwApiGatewaySchema, oasDocumentSchema } from '../../shared/schemas/api-oas';
import { MAPPING, classicToOas, durationSeconds, getPath, oasToClassic } from '../../shared/domain/oas-classic';

const sources = (prefix: string) => ({
  header: { enabled: true, name: `${prefix}-Header` },
  query: { enabled: true, name: `${prefix}_q` },
  cookie: { enabled: false, name: `${prefix}_c` },
});
const sd = (host: string) => ({
  enabled: true,
  queryEndpoint: `http://${host}:8500/v1/catalog`,
  dataPath: 'Address',
  parentDataPath: 'Node',
  portDataPath: 'ServicePort',
  targetPath: '/api',
  useNestedQuery: true,
  useTargetList: false,
  endpointReturnsList: true,
  cache: { enabled: false, timeout: 30 },
});
const pluginEntry = (n: string) => ({ enabled: false, functionName: n, path: `/plugins/${n}.so`, rawBodyOnly: true, requireSession: false });

/** Sets every member the mapping table knows, with values that differ from any default. */
const gw = {
  info: {
    id: 'petstore-api',
    name: 'Petstore',
    orgId: 'org-1',
    dbId: '0123456789abcdef01234567',
    expiration: '2030-01-01 00:00',
    state: { active: false, internal: true },
    versioning: {
      enabled: true,
      name: 'v1',
      default: 'v2',
      key: 'x-api-version',
      location: 'header',
      fallbackToDefault: true,
      stripVersioningData: true,
      urlVersioningPattern: '^v\\d+$',
      versions: [
        { id: 'petstore-v2', name: 'v2' },
        { id: 'petstore-v3', name: 'v3' },
      ],
    },
  },
  server: {
    listenPath: { value: '/petstore/', strip: true },
    customDomain: { enabled: true, name: 'api.example.com', certificates: ['cert-a', 'cert-b'] },
    authentication: {
      enabled: true,
      stripAuthorizationData: true,
      baseIdentityProvider: 'auth_token',
      hmac: { ...sources('Hmac'), enabled: true, allowedAlgorithms: ['hmac-sha256'], allowedClockSkew: 1500 },
      custom: {
        ...sources('Custom'),
        enabled: true,
        config: {
          enabled: false,
          functionName: 'MyAuth',
          path: '/plugins/auth.so',
          rawBodyOnly: true,
          idExtractor: {
            enabled: true,
            source: 'header',
            with: 'regex',
            config: { headerName: 'X-Id', formParamName: 'id', regexp: 'id-(\\d+)', regexpMatchIndex: 1, xPathExp: '//id' },
          },
        },
      },
      oidc: {
        ...sources('Oidc'),
        enabled: true,
        segregateByClientId: true,
        providers: [{ issuer: 'https://idp.example.com', clientToPolicyMapping: [{ clientId: 'client-a', policyId: 'pol-a' }] }],
        scopes: { claimName: 'scope', scopeToPolicyMapping: [{ scope: 'read', policyId: 'pol-r' }] },
      },
    },
    gatewayTags: { enabled: false, tags: ['edge', 'eu'] },
    detailedTracing: { enabled: true },
    detailedActivityLogs: { enabled: true },
    clientCertificates: { enabled: true, allowlist: ['cert-c'] },
    eventHandlers: [
      {
        enabled: true,
        id: 'hook-1',
        name: 'Quota alert',
        trigger: 'QuotaExceeded',
        type: 'webhook',
        url: 'https://hooks.example.com/q',
        method: 'POST',
        headers: [{ name: 'X-Source', value: 'gw' }],
      },
      { enabled: false, id: 'log-1', name: 'Log breaker', trigger: 'BreakerTripped', type: 'log' },
      { enabled: true, id: 'x-1', name: 'Odd kind', trigger: 'BreakerTripped', type: 'something-new' },
    ],
  },
  upstream: {
    url: 'https://petstore.example.com/v1',
    rateLimit: { enabled: true, rate: 100, per: 60 },
    mutualTLS: { enabled: true, domainToCertificateMapping: [{ domain: 'petstore.example.com', certificate: 'cert-up' }] },
    certificatePinning: {
      enabled: true,
      domainToPublicKeysMapping: [{ domain: 'petstore.example.com', publicKeys: ['pk-1', 'pk-2'] }],
    },
    serviceDiscovery: sd('consul'),
    test: { serviceDiscovery: sd('consul-test') },
  },
  middleware: {
    global: {
      cors: {
        enabled: true,
        allowCredentials: true,
        allowedHeaders: ['Authorization'],
        allowedMethods: ['GET', 'POST'],
        allowedOrigins: ['https://app.example.com'],
        exposedHeaders: ['X-Total'],
        maxAge: 600,
        optionsPassthrough: false,
        debug: true,
      },
      cache: {
        enabled: true,
        timeout: 120,
        cacheAllSafeRequests: true,
        cacheResponseCodes: [200, 404],
        cacheByHeaders: ['Accept-Language'],
        enableUpstreamCacheControl: true,
        controlTTLHeaderName: 'X-Cache-TTL',
      },
      contextVariables: { enabled: true },
      trafficLogs: { enabled: false },
      pluginConfig: {
        driver: 'goplugin',
        bundle: { enabled: true, path: 'bundle.zip' },
        data: { enabled: true, value: { region: 'eu', retries: 3 } },
      },
      prePlugins: [pluginEntry('pre')],
      postPlugins: [pluginEntry('post')],
      postAuthenticationPlugins: [pluginEntry('postauth')],
      responsePlugins: [pluginEntry('resp')],
      transformRequestHeaders: { enabled: true, add: [{ name: 'X-Req', value: 'a' }], remove: ['X-Drop'] },
      transformResponseHeaders: { enabled: false, add: [{ name: 'X-Res', value: 'b' }], remove: ['Server'] },
    },
  },
};
const doc = { openapi: '3.0.3', info: { title: 'Petstore', version: '1.0.0' }, paths: {}, 'x-gw-api-gateway': gw };

describe('OAS <-> classic mapping', () => {
  it('the fixture is a valid document and sets every member the table maps', () => {
    expect(oasDocumentSchema.safeParse(doc).success).toBe(true);
    const unset = MAPPING.filter((row) => getPath(gw, row.oasPath) === undefined).map((row) => row.oasPath);
    expect(unset).toEqual([]);
  });

  it('each row has a distinct source and target, so it can be read both ways', () => {
    const oas = MAPPING.map((r) => r.oasPath);
    const classic = MAPPING.map((r) => r.classicPath);
    expect(new Set(oas).size).toBe(oas.length);
    expect(new Set(classic).size).toBe(classic.length);
  });

  it('OAS -> classic -> OAS returns every mapped member unchanged', () => {
    const classic = oasToClassic(doc);
    const back = classicToOas(classic);
    for (const row of MAPPING) {
      expect({ path: row.oasPath, value: getPath(back, row.oasPath) }).toEqual({ path: row.oasPath, value: getPath(gw, row.oasPath) });
    }
    expect(gwApiGatewaySchema.safeParse(back).success).toBe(true);
  });

  it('does not change its input', () => {
    const before = structuredClone(doc);
    classicToOas(oasToClassic(doc));
    expect(doc).toEqual(before);
  });

  it('produces a classic definition with the expected concrete values', () => {
    const c = oasToClassic(doc) as Record<string, any>;
    expect(classicApiSchema.safeParse(c).success).toBe(true);
    expect(c.is_oas).toBe(true);
    expect(c.api_id).toBe('petstore-api');
    expect(c.org_id).toBe('org-1');
    expect(c.id).toBe('0123456789abcdef01234567');
    expect(c.active).toBe(false);
    expect(c.internal).toBe(true);
    expect(c.proxy.listen_path).toBe('/petstore/');
    expect(c.proxy.strip_listen_path).toBe(true);
    expect(c.proxy.target_url).toBe('https://petstore.example.com/v1');
    expect(c.use_keyless).toBe(false);
    expect(c.domain).toBe('api.example.com');
    expect(c.domain_disabled).toBe(false);
    expect(c.tags_disabled).toBe(true);
    expect(c.do_not_track).toBe(true);
    expect(c.enable_detailed_recording).toBe(true);
    expect(c.global_rate_limit).toEqual({ disabled: false, rate: 100, per: 60 });
    expect(c.upstream_certificates).toEqual({ 'petstore.example.com': 'cert-up' });
    expect(c.pinned_public_keys).toEqual({ 'petstore.example.com': 'pk-1,pk-2' });
    expect(c.definition.versions).toEqual({ v2: 'petstore-v2', v3: 'petstore-v3' });
    expect(c.openid_options.providers).toEqual([{ issuer: 'https://idp.example.com', client_ids: { 'client-a': 'pol-a' } }]);
    expect(c.auth_configs.hmac).toEqual({
      disable_header: false,
      auth_header_name: 'Hmac-Header',
      use_param: true,
      param_name: 'Hmac_q',
      use_cookie: false,
      cookie_name: 'Hmac_c',
    });
    expect(c.custom_middleware.pre).toEqual([{ disabled: true, name: 'pre', path: '/plugins/pre.so', raw_body_only: true, require_session: false }]);
    expect(c.event_handlers.events.QuotaExceeded).toEqual([
      {
        handler_name: 'eh_web_hook_handler',
        handler_meta: {
          disabled: false,
          id: 'hook-1',
          name: 'Quota alert',
          target_path: 'https://hooks.example.com/q',
          method: 'POST',
          header_map: { 'X-Source': 'gw' },
        },
      },
    ]);
    expect(c.version_data.versions.Default.global_headers).toEqual({ 'X-Req': 'a' });
    expect(c.version_data.versions.Default.global_response_headers_disabled).toBe(true);
    expect(c.version_data.not_versioned).toBe(false);
    for (const f of ['jwt_expires_at_validation_skew', 'jwt_issued_at_validation_skew', 'jwt_not_before_validation_skew']) {
      expect(c[f]).toBeGreaterThanOrEqual(0);
    }
  });

  it('accepts the bare extension object as well as a document', () => {
    expect(oasToClassic(gw)).toEqual(oasToClassic(doc));
  });

  it('gives an unversioned default-version classic form for a minimal document', () => {
    const c = oasToClassic({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {} }) as Record<string, any>;
    expect(c.is_oas).toBe(true);
    expect(c.version_data).toEqual({ not_versioned: true, default_version: 'Default', versions: { Default: { name: 'Default' } } });
  });

  it('classic -> OAS -> classic keeps the mapped classic fields', () => {
    const classic = {
      api_id: 'c1',
      name: 'Classic',
      org_id: 'org-2',
      use_keyless: true,
      proxy: { listen_path: '/c1/', target_url: 'http://up', strip_listen_path: false },
      CORS: { enable: true, allowed_origins: ['*'] },
      cache_options: { enable_cache: false, cache_timeout: 60 },
      global_rate_limit: { disabled: true, rate: 5, per: 1 },
      version_data: { not_versioned: true, default_version: 'Default', versions: { Default: { name: 'Default', global_headers: { A: 'b' } } } },
    };
    const d = { openapi: '3.0.3', info: { title: 'Classic', version: '1.0.0' }, paths: {}, 'x-gw-api-gateway': classicToOas(classic) };
    expect(oasDocumentSchema.safeParse(d).success).toBe(true);
    const again = oasToClassic(d) as Record<string, any>;
    for (const k of ['api_id', 'name', 'org_id', 'use_keyless', 'proxy', 'CORS', 'cache_options', 'global_rate_limit'] as const) {
      expect(again[k]).toEqual(classic[k]);
    }
    expect(again.version_data.versions.Default.global_headers).toEqual({ A: 'b' });
  });

  it('turns duration strings of upstream.rateLimit.per into seconds', () => {
    expect(durationSeconds('PT1M')).toBe(60);
    expect(durationSeconds('P1DT1H')).toBe(90000);
    expect(durationSeconds('1m30s')).toBe(90);
    expect(durationSeconds(15)).toBe(15);
    expect(durationSeconds('soon')).toBe('soon');
    const c = oasToClassic({ upstream: { rateLimit: { enabled: true, rate: 10, per: 'PT10S' } } }) as Record<string, any>;
    expect(c.global_rate_limit).toEqual({ disabled: false, rate: 10, per: 10 });
  });
});
