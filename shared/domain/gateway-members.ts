/**
 * What each member of a classic API definition (and so of the OAS form, which maps onto it:
 * oas-classic.ts) becomes in the gateway model (gateway-model.ts): honoured, approximated (and
 * how), or ignored (and why). A member not listed is covered by its nearest listed parent; the
 * docs table is generated from this one (npm run generate), and a test fails when a member of
 * the classic schema is covered by neither.
 */

export type Coverage = { status: 'honoured' | 'approximated' | 'ignored'; note: string };

const honoured = (note: string): Coverage => ({ status: 'honoured', note });
const approximated = (note: string): Coverage => ({ status: 'approximated', note });
const ignored = (note: string): Coverage => ({ status: 'ignored', note });

const BY_CHECK = 'decided by the control plane per request (the check), not by the route';
const PLUGINS = 'plugins run inside the reference gateway; neither nginx nor API Gateway runs them';
const NOT_ROUTING = 'not a routing member';

/** Dotted classic paths (`*` for any key of a map). */
export const GATEWAY_MEMBERS: Readonly<Record<string, Coverage>> = {
  active: honoured('an inactive API routes nothing (404)'),
  internal: honoured('an internal API routes nothing: a gateway reaches it by its id only'),
  api_id: honoured('names the route; the check is pinned to it'),
  org_id: honoured('whose routing claims the route stands on (contract §13)'),
  domain: honoured('the host the route is served on, when granted to the organisation (contract §13)'),
  domain_disabled: honoured('the route is served on the shared hosts'),
  proxy: honoured('the members below'),
  'proxy.listen_path': honoured('the route, matched by whole segments, longest first'),
  'proxy.strip_listen_path': honoured('the listen path is removed before the upstream path'),
  'proxy.target_url': honoured('the upstream: scheme, host, port and base path'),
  'proxy.target_list': honoured('several upstreams taken in turn when enable_load_balancing is on'),
  'proxy.enable_load_balancing': honoured('round robin over target_list'),
  'proxy.preserve_host_header': honoured("the client's Host goes upstream"),
  'proxy.disable_strip_slash': ignored('paths are decided in normal form (contract §13); trailing slashes are kept as sent'),
  'proxy.check_host_against_uptime_tests': ignored('no uptime tests run in the data plane'),
  'proxy.service_discovery': ignored("the upstream is the definition's URL; no discovery service is queried"),
  'proxy.transport': ignored("TLS settings towards the upstream are the gateway operator's"),
  use_keyless: honoured('no key is asked for; the request is not checked'),
  'auth.auth_header_name': honoured('the header the key is read from'),
  'auth.use_param': honoured('the key may come in a query parameter'),
  'auth.param_name': honoured('that query parameter'),
  auth: ignored('cookies, certificates and signatures are not read by the check'),
  CORS: honoured('preflight answered and response headers added by the gateway, unless options_passthrough'),
  'CORS.debug': ignored('no debug output in the data plane'),
  'version_data.versions.*.global_headers': honoured('request headers added (the default version)'),
  'version_data.versions.*.global_headers_remove': honoured('request headers removed (the default version)'),
  'version_data.versions.*.global_headers_disabled': honoured('turns both header rules off'),
  'version_data.versions.*.global_size_limit': honoured('the largest request body taken (413 beyond)'),
  'version_data.versions.*.extended_paths': approximated(
    'only a hard timeout on the root path (`/`) becomes the upstream timeout; per-path middleware is ignored',
  ),
  'version_data.versions.*': ignored('versions other than the default route nothing (the route serves the default version)'),
  version_data: approximated("the default version's header rules, size limit and root timeout apply"),
  definition: ignored('version selection by header or path is not routed: each version is its own API with its own listen path'),
  use_standard_auth: approximated('key authentication is what the check does; the other methods below are not'),
  ...Object.fromEntries(
    [
      'use_basic_auth',
      'use_oauth2',
      'use_openid',
      'enable_jwt',
      'use_mutual_tls_auth',
      'enable_signature_checking',
      'use_go_plugin_auth',
      'enable_coprocess_auth',
      'custom_plugin_auth_enabled',
      'external_oauth',
      'openid_options',
      'auth_configs',
      'basic_auth',
      'oauth_meta',
      'scopes',
      'base_identity_provided_by',
      'hmac_allowed_algorithms',
      'hmac_allowed_clock_skew',
      'client_certificates',
      'jwt_client_base_field',
      'jwt_identity_base_field',
      'jwt_policy_field_name',
      'jwt_scope_claim_name',
      'jwt_scope_to_policy_mapping',
      'jwt_signing_method',
      'jwt_source',
      'jwt_skip_kid',
      'jwt_default_policies',
      'jwt_expires_at_validation_skew',
      'jwt_issued_at_validation_skew',
      'jwt_not_before_validation_skew',
      'strip_auth_data',
      'session_provider',
      'auth_provider',
      'idp_client_id_mapping_disabled',
    ].map((m) => [m, ignored('only key authentication is enforced by the check; this method is not')]),
  ),
  ...Object.fromEntries(
    [
      'global_rate_limit',
      'disable_quota',
      'disable_rate_limit',
      'dont_set_quota_on_create',
      'enable_ip_blacklisting',
      'enable_ip_whitelisting',
      'allowed_ips',
      'blacklisted_ips',
      'session_lifetime',
      'session_lifetime_respects_key_expiration',
      'expiration',
    ].map((m) => [m, ignored(BY_CHECK)]),
  ),
  ...Object.fromEntries(
    [
      'custom_middleware',
      'custom_middleware_bundle',
      'custom_middleware_bundle_disabled',
      'config_data',
      'config_data_disabled',
      'response_processors',
      'analytics_plugin',
    ].map((m) => [m, ignored(PLUGINS)]),
  ),
  cache_options: ignored('responses are not cached by the rendered gateways'),
  graphql: ignored('GraphQL execution happens in the reference gateway only'),
  enable_batch_request_support: ignored("batch requests are the reference gateway's"),
  enable_context_vars: ignored("context variables are the reference gateway's"),
  request_signing: ignored('requests to the upstream are not signed'),
  upstream_certificates: ignored("TLS settings towards the upstream are the gateway operator's"),
  upstream_certificates_disabled: ignored("TLS settings towards the upstream are the gateway operator's"),
  pinned_public_keys: ignored("TLS settings towards the upstream are the gateway operator's"),
  certificate_pinning_disabled: ignored("TLS settings towards the upstream are the gateway operator's"),
  certificates: ignored('certificates of a custom domain are installed by the operator (an API Gateway domain name, nginx ssl_certificate)'),
  enable_proxy_protocol: ignored("the listener is the gateway operator's"),
  listen_port: ignored("the listener is the gateway operator's"),
  protocol: ignored("the listener is the gateway operator's"),
  uptime_tests: ignored('no uptime tests run in the data plane'),
  event_handlers: ignored("events are the control plane's (webhooks), fired by the check"),
  notifications: ignored("events are the control plane's (webhooks)"),
  ...Object.fromEntries(
    [
      'id',
      'name',
      'slug',
      'is_oas',
      'tags',
      'tags_disabled',
      'tag_headers',
      'detailed_tracing',
      'enable_detailed_recording',
      'do_not_track',
      'expire_analytics_after',
    ].map((m) => [m, ignored(NOT_ROUTING)]),
  ),
};

/** The entry covering a classic member path: its own, or its nearest listed parent's (`*` matches any map key). */
export function coverageOf(path: string): Coverage | undefined {
  const segs = path.split('.');
  for (let n = segs.length; n > 0; n--) {
    const exact = segs.slice(0, n).join('.');
    if (GATEWAY_MEMBERS[exact]) return GATEWAY_MEMBERS[exact];
    for (const [pattern, coverage] of Object.entries(GATEWAY_MEMBERS)) {
      const p = pattern.split('.');
      if (p.length === n && p.every((seg, i) => seg === '*' || seg === segs[i])) return coverage;
    }
  }
  return undefined;
}
