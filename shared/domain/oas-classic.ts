/**
 * OAS <-> classic conversion: ONE table of (x-gw-api-gateway path, classic path, transform),
 * read forwards by oasToClassic and backwards by classicToOas, so the two directions cannot
 * disagree. Members without a classic counterpart (operations, securitySchemes, smoothing) stay
 * only in the OAS document, which is stored alongside the classic form.
 */
import type { ClassicApi } from '../schemas/api-classic';
import type { GwApiGateway, OasDocument } from '../schemas/api-oas';
import { GW_EXTENSION } from './oas-document';

type Json = Record<string, any>;
type Fn = (v: any) => any;

export interface MappingRow {
  /** Dotted path inside x-gw-api-gateway. */
  oasPath: string;
  /** Dotted path inside the classic definition. */
  classicPath: string;
  /** OAS value -> classic value; `inverse` must undo it. Both absent: copied as is. */
  transform?: Fn;
  inverse?: Fn;
}

const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** enabled <-> disabled. Non-booleans pass unchanged so bad input is not silently invented. */
const not: Fn = (v) => (typeof v === 'boolean' ? !v : v);
const negated = { transform: not, inverse: not };

/** [{k, v}] <-> {k: v} (classic keeps these lists as maps). */
const pairs = (k: string, v: string) => ({
  transform: (list: any) => (Array.isArray(list) ? Object.fromEntries(list.map((e: Json) => [e?.[k], e?.[v]])) : list),
  inverse: (map: any) => (isObj(map) ? Object.entries(map).map(([key, val]) => ({ [k]: key, [v]: val })) : map),
});

/** Classic pins keys as one comma-separated string per domain. */
const pinning = {
  transform: (list: any) => (Array.isArray(list) ? Object.fromEntries(list.map((e: Json) => [e?.domain, (e?.publicKeys ?? []).join(',')])) : list),
  inverse: (map: any) =>
    isObj(map)
      ? Object.entries(map).map(([domain, keys]) => ({
          domain,
          publicKeys: String(keys ?? '')
            .split(',')
            .filter(Boolean),
        }))
      : map,
};

/** Renames the members of each entry of a list (or of one object); unnamed members are kept as they are. */
function renamer(names: Record<string, string>, negate: string[] = []) {
  const back = Object.fromEntries(Object.entries(names).map(([a, b]) => [b, a]));
  const apply = (table: Record<string, string>) => (e: any) => {
    if (!isObj(e)) return e;
    const out: Json = {};
    for (const [key, val] of Object.entries(e)) {
      const to = table[key] ?? key;
      out[to] = negate.includes(key) || negate.includes(to) ? not(val) : val;
    }
    return out;
  };
  const fwd = apply(names);
  const inv = apply(back);
  return {
    one: { transform: fwd, inverse: inv },
    list: {
      transform: (l: any) => (Array.isArray(l) ? l.map(fwd) : l),
      inverse: (l: any) => (Array.isArray(l) ? l.map(inv) : l),
    },
  };
}

const plugin = renamer({ enabled: 'disabled', functionName: 'name', rawBodyOnly: 'raw_body_only', requireSession: 'require_session' }, ['enabled']);

/** Event handler kinds of the OAS form and the handler names of the classic form. */
const HANDLER_KINDS: Record<string, string> = {
  webhook: 'eh_web_hook_handler',
  log: 'eh_log_handler',
  custom: 'cp_dynamic_handler',
};
const KIND_OF = Object.fromEntries(Object.entries(HANDLER_KINDS).map(([k, v]) => [v, k]));
const webhookMeta = renamer({ url: 'target_path', headers: 'header_map', bodyTemplate: 'template_path', cooldownPeriod: 'event_timeout' });
const headerPairs = pairs('name', 'value');

/**
 * server.eventHandlers[] <-> event_handlers.events {trigger: [{handler_name, handler_meta}]}.
 * Members beyond the listed ones travel in handler_meta, so nothing is lost either way.
 */
const eventHandlers = {
  transform: (list: any) => {
    if (!Array.isArray(list)) return list;
    const events: Record<string, Json[]> = {};
    for (const h of list) {
      if (!isObj(h)) continue;
      const { enabled, trigger, type, headers, ...rest } = h;
      const meta: Json = webhookMeta.one.transform(rest);
      if (enabled !== undefined) meta.disabled = not(enabled);
      if (headers !== undefined) meta.header_map = headerPairs.transform(headers);
      (events[String(trigger)] ??= []).push({ handler_name: HANDLER_KINDS[type] ?? type, handler_meta: meta });
    }
    return events;
  },
  inverse: (events: any) => {
    if (!isObj(events)) return events;
    return Object.entries(events).flatMap(([trigger, list]) =>
      (Array.isArray(list) ? list : []).map((e: Json) => {
        const { disabled, header_map, ...rest } = isObj(e?.handler_meta) ? e.handler_meta : ({} as Json);
        const out: Json = webhookMeta.one.inverse(rest);
        if (disabled !== undefined) out.enabled = not(disabled);
        if (header_map !== undefined) out.headers = headerPairs.inverse(header_map);
        return { ...out, trigger, type: KIND_OF[e?.handler_name] ?? e?.handler_name };
      }),
    );
  },
};

/** OIDC providers: clientToPolicyMapping [{clientId, policyId}] <-> client_ids {clientId: policyId}. */
const clientIds = pairs('clientId', 'policyId');
const oidcProviders = {
  transform: (list: any) =>
    Array.isArray(list)
      ? list.map((p: any) => {
          if (!isObj(p)) return p;
          const { clientToPolicyMapping, ...rest } = p;
          return clientToPolicyMapping === undefined ? rest : { ...rest, client_ids: clientIds.transform(clientToPolicyMapping) };
        })
      : list,
  inverse: (list: any) =>
    Array.isArray(list)
      ? list.map((p: any) => {
          if (!isObj(p)) return p;
          const { client_ids, ...rest } = p;
          return client_ids === undefined ? rest : { ...rest, clientToPolicyMapping: clientIds.inverse(client_ids) };
        })
      : list,
};

/** Seconds from a number, an ISO 8601 duration (PT1M) or a Go duration (1m30s); else unchanged. */
export function durationSeconds(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const iso = /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(v);
  if (iso && v.length > 1 && !/T$/i.test(v)) {
    const [, d = '0', h = '0', m = '0', s = '0'] = iso;
    return Number(d) * 86400 + Number(h) * 3600 + Number(m) * 60 + Number(s);
  }
  const go = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s)?$/.exec(v);
  if (go && v.length > 0) {
    const [, h = '0', m = '0', s = '0'] = go;
    return Number(h) * 3600 + Number(m) * 60 + Number(s);
  }
  return v;
}
const perSeconds = { transform: durationSeconds, inverse: (v: any) => v };

type Spec = [oas: string, classic: string, fns?: { transform: Fn; inverse: Fn }];
const rows = (oasBase: string, classicBase: string, list: Spec[]): MappingRow[] =>
  list.map(([o, c, fns]) => ({ oasPath: oasBase + o, classicPath: classicBase + c, ...fns }));

/** AuthSources {header, query, cookie} <-> an auth_configs entry of the classic form. */
const authSources = (oasBase: string, classicBase: string): MappingRow[] =>
  rows(oasBase, classicBase, [
    ['header.enabled', 'disable_header', negated],
    ['header.name', 'auth_header_name'],
    ['query.enabled', 'use_param'],
    ['query.name', 'param_name'],
    ['cookie.enabled', 'use_cookie'],
    ['cookie.name', 'cookie_name'],
  ]);

const serviceDiscovery = (oasBase: string, classicBase: string): MappingRow[] =>
  rows(oasBase, classicBase, [
    ['enabled', 'use_discovery_service'],
    ['queryEndpoint', 'query_endpoint'],
    ['dataPath', 'data_path'],
    ['parentDataPath', 'parent_data_path'],
    ['portDataPath', 'port_data_path'],
    ['targetPath', 'target_path'],
    ['useNestedQuery', 'use_nested_query'],
    ['useTargetList', 'use_target_list'],
    ['endpointReturnsList', 'endpoint_returns_list'],
    ['cache.enabled', 'cache_disabled', negated],
    // cacheTimeout is the deprecated spelling of cache.timeout; one classic field cannot map back to both.
    ['cache.timeout', 'cache_timeout'],
  ]);

/** Header injection lives on the default version of the classic form. */
const DEFAULT_VERSION = 'version_data.versions.Default.';

export const MAPPING: readonly MappingRow[] = [
  ...rows('info.', '', [
    ['id', 'api_id'],
    ['name', 'name'],
    ['orgId', 'org_id'],
    ['dbId', 'id'],
    ['expiration', 'expiration'],
    ['state.active', 'active'],
    ['state.internal', 'internal'],
  ]),
  ...rows('info.versioning.', 'definition.', [
    ['enabled', 'enabled'],
    ['name', 'name'],
    ['default', 'default'],
    ['key', 'key'],
    ['location', 'location'],
    ['fallbackToDefault', 'fallback_to_default'],
    ['stripVersioningData', 'strip_versioning_data'],
    ['urlVersioningPattern', 'url_versioning_pattern'],
    ['versions', 'versions', pairs('name', 'id')],
  ]),
  ...rows('server.', '', [
    ['listenPath.value', 'proxy.listen_path'],
    ['listenPath.strip', 'proxy.strip_listen_path'],
    ['customDomain.enabled', 'domain_disabled', negated],
    ['customDomain.name', 'domain'],
    ['customDomain.certificates', 'certificates'],
    ['authentication.enabled', 'use_keyless', negated],
    ['authentication.stripAuthorizationData', 'strip_auth_data'],
    ['authentication.baseIdentityProvider', 'base_identity_provided_by'],
    ['authentication.hmac.enabled', 'enable_signature_checking'],
    ['authentication.hmac.allowedAlgorithms', 'hmac_allowed_algorithms'],
    ['authentication.hmac.allowedClockSkew', 'hmac_allowed_clock_skew'],
    ['authentication.custom.enabled', 'custom_plugin_auth_enabled'],
    ['authentication.custom.config.enabled', 'custom_middleware.auth_check.disabled', negated],
    ['authentication.custom.config.functionName', 'custom_middleware.auth_check.name'],
    ['authentication.custom.config.path', 'custom_middleware.auth_check.path'],
    ['authentication.custom.config.rawBodyOnly', 'custom_middleware.auth_check.raw_body_only'],
    ['authentication.custom.config.idExtractor.enabled', 'custom_middleware.id_extractor.disabled', negated],
    ['authentication.custom.config.idExtractor.source', 'custom_middleware.id_extractor.extract_from'],
    ['authentication.custom.config.idExtractor.with', 'custom_middleware.id_extractor.extract_with'],
    ['authentication.custom.config.idExtractor.config.headerName', 'custom_middleware.id_extractor.extractor_config.header_name'],
    ['authentication.custom.config.idExtractor.config.formParamName', 'custom_middleware.id_extractor.extractor_config.param_name'],
    ['authentication.custom.config.idExtractor.config.regexp', 'custom_middleware.id_extractor.extractor_config.regex_expression'],
    ['authentication.custom.config.idExtractor.config.regexpMatchIndex', 'custom_middleware.id_extractor.extractor_config.regex_match_index'],
    ['authentication.custom.config.idExtractor.config.xPathExp', 'custom_middleware.id_extractor.extractor_config.xpath_expression'],
    ['authentication.oidc.enabled', 'use_openid'],
    ['authentication.oidc.segregateByClientId', 'openid_options.segregate_by_client'],
    ['authentication.oidc.providers', 'openid_options.providers', oidcProviders],
    ['authentication.oidc.scopes.claimName', 'scopes.oidc.scope_claim_name'],
    ['authentication.oidc.scopes.scopeToPolicyMapping', 'scopes.oidc.scope_to_policy', pairs('scope', 'policyId')],
    ['gatewayTags.enabled', 'tags_disabled', negated],
    ['gatewayTags.tags', 'tags'],
    ['detailedTracing.enabled', 'detailed_tracing'],
    ['detailedActivityLogs.enabled', 'enable_detailed_recording'],
    ['clientCertificates.enabled', 'use_mutual_tls_auth'],
    ['clientCertificates.allowlist', 'client_certificates'],
    ['eventHandlers', 'event_handlers.events', eventHandlers],
  ]),
  ...authSources('server.authentication.hmac.', 'auth_configs.hmac.'),
  ...authSources('server.authentication.oidc.', 'auth_configs.oidc.'),
  ...authSources('server.authentication.custom.', 'auth_configs.coprocess.'),
  ...rows('upstream.', '', [
    ['url', 'proxy.target_url'],
    ['rateLimit.enabled', 'global_rate_limit.disabled', negated],
    ['rateLimit.rate', 'global_rate_limit.rate'],
    ['rateLimit.per', 'global_rate_limit.per', perSeconds],
    ['mutualTLS.enabled', 'upstream_certificates_disabled', negated],
    ['mutualTLS.domainToCertificateMapping', 'upstream_certificates', pairs('domain', 'certificate')],
    ['certificatePinning.enabled', 'certificate_pinning_disabled', negated],
    ['certificatePinning.domainToPublicKeysMapping', 'pinned_public_keys', pinning],
  ]),
  ...serviceDiscovery('upstream.serviceDiscovery.', 'proxy.service_discovery.'),
  ...serviceDiscovery('upstream.test.serviceDiscovery.', 'uptime_tests.config.service_discovery.'),
  ...rows('middleware.global.cors.', 'CORS.', [
    ['enabled', 'enable'],
    ['allowCredentials', 'allow_credentials'],
    ['allowedHeaders', 'allowed_headers'],
    ['allowedMethods', 'allowed_methods'],
    ['allowedOrigins', 'allowed_origins'],
    ['exposedHeaders', 'exposed_headers'],
    ['maxAge', 'max_age'],
    ['optionsPassthrough', 'options_passthrough'],
    ['debug', 'debug'],
  ]),
  ...rows('middleware.global.cache.', 'cache_options.', [
    ['enabled', 'enable_cache'],
    ['timeout', 'cache_timeout'],
    ['cacheAllSafeRequests', 'cache_all_safe_requests'],
    ['cacheResponseCodes', 'cache_response_codes'],
    ['cacheByHeaders', 'cache_by_headers'],
    ['enableUpstreamCacheControl', 'enable_upstream_cache_control'],
    ['controlTTLHeaderName', 'cache_control_ttl_header'],
  ]),
  ...rows('middleware.global.', '', [
    ['contextVariables.enabled', 'enable_context_vars'],
    ['trafficLogs.enabled', 'do_not_track', negated],
    ['pluginConfig.driver', 'custom_middleware.driver'],
    ['pluginConfig.bundle.enabled', 'custom_middleware_bundle_disabled', negated],
    ['pluginConfig.bundle.path', 'custom_middleware_bundle'],
    ['pluginConfig.data.enabled', 'config_data_disabled', negated],
    ['pluginConfig.data.value', 'config_data'],
    // The singular wrapper forms (prePlugin.plugins, ...) are older spellings of these lists.
    ['prePlugins', 'custom_middleware.pre', plugin.list],
    ['postPlugins', 'custom_middleware.post', plugin.list],
    ['postAuthenticationPlugins', 'custom_middleware.post_key_auth', plugin.list],
    ['responsePlugins', 'custom_middleware.response', plugin.list],
    ['transformRequestHeaders.enabled', `${DEFAULT_VERSION}global_headers_disabled`, negated],
    ['transformRequestHeaders.add', `${DEFAULT_VERSION}global_headers`, headerPairs],
    ['transformRequestHeaders.remove', `${DEFAULT_VERSION}global_headers_remove`],
    ['transformResponseHeaders.enabled', `${DEFAULT_VERSION}global_response_headers_disabled`, negated],
    ['transformResponseHeaders.add', `${DEFAULT_VERSION}global_response_headers`, headerPairs],
    ['transformResponseHeaders.remove', `${DEFAULT_VERSION}global_response_headers_remove`],
  ]),
];

export function getPath(obj: unknown, path: string): unknown {
  let cur: any = obj;
  for (const seg of path.split('.')) {
    if (!isObj(cur)) return undefined;
    cur = cur[seg];
  }
  return cur;
}

function setPath(obj: Json, path: string, value: unknown): void {
  const segs = path.split('.');
  let cur: Json = obj;
  for (const seg of segs.slice(0, -1)) {
    if (!isObj(cur[seg])) cur[seg] = {};
    cur = cur[seg];
  }
  cur[segs[segs.length - 1]!] = value;
}

function convert(from: unknown, toClassic: boolean): Json {
  const out: Json = {};
  for (const row of MAPPING) {
    const [src, dst, fn] = toClassic ? [row.oasPath, row.classicPath, row.transform] : [row.classicPath, row.oasPath, row.inverse];
    const v = getPath(from, src);
    if (v === undefined) continue;
    const copy = structuredClone(v);
    setPath(out, dst, fn ? fn(copy) : copy);
  }
  return out;
}

/** The classic definition of an OAS document (or of a bare x-gw-api-gateway object); is_oas true. */
export function oasToClassic(doc: OasDocument | Json): ClassicApi {
  const gw = GW_EXTENSION in doc ? (doc as Json)[GW_EXTENSION] : 'openapi' in doc ? {} : doc;
  const classic = convert(gw ?? {}, true);
  classic.is_oas = true;
  // The gateway reads these as unsigned; absent means no skew allowed.
  for (const f of ['jwt_expires_at_validation_skew', 'jwt_issued_at_validation_skew', 'jwt_not_before_validation_skew']) {
    classic[f] ??= 0;
  }
  const vd = (classic.version_data ??= {});
  vd.not_versioned ??= classic.definition?.enabled !== true;
  vd.default_version ??= 'Default';
  vd.versions ??= {};
  vd.versions.Default ??= {};
  vd.versions.Default.name ??= 'Default';
  return classic as ClassicApi;
}

/** The x-gw-api-gateway object of a classic definition (members without an OAS counterpart are left out). */
export function classicToOas(classic: ClassicApi | Json): GwApiGateway {
  return convert(classic, false) as GwApiGateway;
}
