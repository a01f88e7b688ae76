import * as z from 'zod';
import { apiIdSchema, idSchema } from './common';
import { arr, bool, fields, int, num, o, obj, str, strs, urlText } from './loose';

const skew = /* @__PURE__ */ (() => z.number().int().min(0))();
const hook = /* @__PURE__ */ (() => o({ disabled: bool, name: str, path: str, raw_body_only: bool, require_session: bool }))();
const provider = /* @__PURE__ */ (() => o({ meta: obj, name: str, storage_engine: str }))();

const graphql = /* @__PURE__ */ (() =>
  o({
    enabled: bool,
    execution_mode: str,
    introspection: o({ disabled: bool }),
    last_schema_update: str,
    playground: o({ enabled: bool, path: str }),
    schema: str,
    version: str,
    subgraph: o({ sdl: str }),
    engine: o({
      data_sources: arr(o({ config: z.unknown(), internal: bool, kind: str, name: str, root_fields: arr(o({ fields: strs, type: str })) })),
      field_configs: arr(o({ disable_default_mapping: bool, field_name: str, path: strs, type_name: str })),
      global_headers: arr(o({ key: str, value: str })),
    }),
    proxy: o({
      auth_headers: obj,
      features: o({ use_immutable_headers: bool }),
      request_headers: obj,
      request_headers_rewrite: obj,
      subscription_type: str,
      use_response_extensions: o({ on_error_forwarding: bool }),
    }),
    supergraph: o({
      disable_query_batching: bool,
      global_headers: obj,
      merged_sdl: str,
      subgraphs: arr(o({ api_id: str, headers: obj, name: str, sdl: str, subscription_type: str, url: str })),
      updated_at: str,
    }),
    type_field_configurations: arr(
      o({ data_source: o({ data_source_config: z.unknown(), kind: str }), field_name: str, mapping: o({ disabled: bool, path: str }), type_name: str }),
    ),
  }))();

const serviceDiscovery = /* @__PURE__ */ (() =>
  o({
    ...fields('cache_disabled endpoint_returns_list use_discovery_service use_nested_query use_target_list', bool),
    cache_timeout: int,
    ...fields('data_path parent_data_path port_data_path query_endpoint target_path', str),
  }))();

const uptimeCheck = /* @__PURE__ */ (() =>
  o({
    body: str,
    commands: arr(o({ message: str, name: str })),
    enable_proxy_protocol: bool,
    headers: obj,
    method: str,
    protocol: str,
    // An integer in the single-definition form, a duration string in the list form.
    timeout: z.union([int, str]),
    url: str,
  }))();

/** The classic API definition, every listed field typed. */
export const classicApiSchema = /* @__PURE__ */ (() =>
  o({
    ...fields(
      `active certificate_pinning_disabled config_data_disabled custom_middleware_bundle_disabled
     custom_plugin_auth_enabled detailed_tracing disable_quota disable_rate_limit do_not_track domain_disabled
     dont_set_quota_on_create enable_batch_request_support enable_context_vars enable_coprocess_auth
     enable_detailed_recording enable_ip_blacklisting enable_ip_whitelisting enable_jwt enable_proxy_protocol
     enable_signature_checking idp_client_id_mapping_disabled internal is_oas jwt_skip_kid
     session_lifetime_respects_key_expiration strip_auth_data tags_disabled upstream_certificates_disabled
     use_basic_auth use_go_plugin_auth use_keyless use_mutual_tls_auth use_oauth2 use_openid use_standard_auth`,
      bool,
    ),
    // Blank means "generate one" (contract §4), as the gateway's own clients send it.
    api_id: z.union([apiIdSchema, z.literal('')]),
    org_id: z.union([idSchema, z.literal('')]),
    id: str,
    ...fields(
      `name slug domain protocol expiration base_identity_provided_by custom_middleware_bundle jwt_client_base_field
     jwt_identity_base_field jwt_policy_field_name jwt_scope_claim_name jwt_signing_method jwt_source`,
      str,
    ),
    ...fields('expire_analytics_after listen_port session_lifetime', int),
    jwt_expires_at_validation_skew: skew,
    jwt_issued_at_validation_skew: skew,
    jwt_not_before_validation_skew: skew,
    hmac_allowed_clock_skew: num,
    ...fields('allowed_ips blacklisted_ips certificates client_certificates hmac_allowed_algorithms jwt_default_policies tag_headers tags', strs),
    ...fields('auth_configs config_data jwt_scope_to_policy_mapping pinned_public_keys upstream_certificates', obj),

    CORS: o({
      ...fields('allow_credentials debug enable options_passthrough', bool),
      ...fields('allowed_headers allowed_methods allowed_origins exposed_headers', strs),
      max_age: int,
    }),
    analytics_plugin: o({ enable: bool, func_name: str, plugin_path: str }),
    auth: o({
      ...fields('auth_header_name cookie_name name param_name', str),
      ...fields('disable_header use_certificate use_cookie use_param validate_signature', bool),
      signature: o({
        ...fields('algorithm error_message header param_name secret', str),
        allowed_clock_skew: num,
        error_code: int,
        use_param: bool,
      }),
    }),
    auth_provider: provider,
    session_provider: provider,
    basic_auth: o({ body_password_regexp: str, body_user_regexp: str, cache_ttl: int, disable_caching: bool, extract_from_body: bool }),
    cache_options: o({
      cache_all_safe_requests: bool,
      cache_by_headers: strs,
      cache_control_ttl_header: str,
      cache_response_codes: arr(int),
      cache_timeout: int,
      enable_cache: bool,
      enable_upstream_cache_control: bool,
    }),
    custom_middleware: o({
      auth_check: hook,
      driver: str,
      id_extractor: o({ disabled: bool, extract_from: str, extract_with: str, extractor_config: obj }),
      post: arr(hook),
      post_key_auth: arr(hook),
      pre: arr(hook),
      response: arr(hook),
    }),
    definition: o({
      ...fields('default key location name url_versioning_pattern', str),
      ...fields('enabled fallback_to_default strip_path strip_versioning_data', bool),
      versions: obj,
    }),
    event_handlers: o({ events: obj }),
    external_oauth: o({
      enabled: bool,
      providers: arr(
        o({
          introspection: o({
            cache: o({ enabled: bool, timeout: int }),
            client_id: str,
            client_secret: str,
            enabled: bool,
            identity_base_field: str,
            url: str,
          }),
          jwt: o({
            enabled: bool,
            expires_at_validation_skew: skew,
            identity_base_field: str,
            issued_at_validation_skew: skew,
            not_before_validation_skew: skew,
            signing_method: str,
            source: str,
          }),
        }),
      ),
    }),
    global_rate_limit: o({ disabled: bool, per: num, rate: num }),
    graphql,
    notifications: o({ oauth_on_keychange_url: str, shared_secret: str }),
    oauth_meta: o({ allowed_access_types: strs, allowed_authorize_types: strs, auth_login_redirect: str }),
    openid_options: o({ providers: arr(o({ client_ids: obj, issuer: str })), segregate_by_client: bool }),
    proxy: o({
      ...fields('check_host_against_uptime_tests disable_strip_slash enable_load_balancing preserve_host_header strip_listen_path', bool),
      listen_path: str,
      target_list: arr(urlText),
      target_url: urlText,
      service_discovery: serviceDiscovery,
      transport: o({
        proxy_url: str,
        ssl_ciphers: strs,
        ssl_force_common_name_check: bool,
        ssl_insecure_skip_verify: bool,
        ssl_max_version: int,
        ssl_min_version: int,
      }),
    }),
    request_signing: o({ algorithm: str, certificate_id: str, header_list: strs, is_enabled: bool, key_id: str, secret: str, signature_header: str }),
    response_processors: arr(o({ name: str, options: z.unknown() })),
    scopes: o({
      jwt: o({ scope_claim_name: str, scope_to_policy: obj }),
      oidc: o({ scope_claim_name: str, scope_to_policy: obj }),
    }),
    uptime_tests: o({
      check_list: arr(uptimeCheck),
      config: o({ expire_utime_after: int, recheck_wait: int, service_discovery: serviceDiscovery }),
    }),
    version_data: o({ default_version: str, not_versioned: bool, versions: obj }),
  }))();
export type ClassicApi = z.infer<typeof classicApiSchema>;
