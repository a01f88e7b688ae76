import * as z from 'zod';
import { apiIdSchema, idSchema } from './common';
import { LIMITS } from '../limits';
import { arr, bool, fields, int, num, o, obj, str, strs, urlText } from './loose';
import { smoothingFields } from './smoothing';

const plugin = /* @__PURE__ */ (() => o({ enabled: bool, functionName: str, path: str, rawBodyOnly: bool, requireSession: bool }))();
const authSource = /* @__PURE__ */ (() => o({ enabled: bool, name: str }))();
const authSources = { cookie: authSource, header: authSource, query: authSource };
const serviceDiscovery = /* @__PURE__ */ (() =>
  o({
    cache: o({ enabled: bool, timeout: int }),
    cacheTimeout: int,
    ...fields('dataPath parentDataPath portDataPath queryEndpoint targetPath', str),
    ...fields('enabled endpointReturnsList useNestedQuery useTargetList', bool),
  }))();
const headerTransform = /* @__PURE__ */ (() => o({ add: arr(o({ name: str, value: str })), enabled: bool, remove: strs }))();

/** The x-gw-api-gateway object. */
export const gwApiGatewaySchema = /* @__PURE__ */ (() =>
  o({
    info: o({
      dbId: str,
      expiration: str,
      // Blank ids mean "not chosen yet": the service generates api_id (contract §4).
      id: z.union([apiIdSchema, z.literal('')]),
      name: str,
      orgId: z.union([idSchema, z.literal('')]),
      state: o({ active: bool, internal: bool }),
      versioning: o({
        ...fields('default key location name urlVersioningPattern', str),
        ...fields('enabled fallbackToDefault stripVersioningData', bool),
        versions: arr(o({ id: str, name: str })),
      }),
    }),
    middleware: o({
      global: o({
        cache: o({
          cacheAllSafeRequests: bool,
          cacheByHeaders: strs,
          cacheResponseCodes: arr(int),
          controlTTLHeaderName: str,
          enableUpstreamCacheControl: bool,
          enabled: bool,
          timeout: int,
        }),
        contextVariables: o({ enabled: bool }),
        cors: o({
          ...fields('allowCredentials debug enabled optionsPassthrough', bool),
          ...fields('allowedHeaders allowedMethods allowedOrigins exposedHeaders', strs),
          maxAge: int,
        }),
        pluginConfig: o({ bundle: o({ enabled: bool, path: str }), data: o({ enabled: bool, value: obj }), driver: str }),
        ...fields('postAuthenticationPlugins postPlugins prePlugins responsePlugins', arr(plugin)),
        ...fields('postAuthenticationPlugin postPlugin prePlugin responsePlugin', o({ plugins: arr(plugin) })),
        trafficLogs: o({ enabled: bool }),
        transformRequestHeaders: headerTransform,
        transformResponseHeaders: headerTransform,
      }),
      operations: z.record(z.string().max(512), obj),
    }),
    server: o({
      authentication: o({
        baseIdentityProvider: str,
        enabled: bool,
        securitySchemes: obj,
        stripAuthorizationData: bool,
        custom: o({
          ...authSources,
          enabled: bool,
          config: o({
            enabled: bool,
            functionName: str,
            path: str,
            rawBodyOnly: bool,
            idExtractor: o({
              enabled: bool,
              source: str,
              with: str,
              config: o({ formParamName: str, headerName: str, regexp: str, regexpMatchIndex: int, xPathExp: str }),
            }),
          }),
        }),
        hmac: o({ ...authSources, allowedAlgorithms: strs, allowedClockSkew: num, enabled: bool }),
        oidc: o({
          ...authSources,
          enabled: bool,
          providers: arr(o({ issuer: str, clientToPolicyMapping: arr(o({ clientId: str, policyId: str })) })),
          scopes: o({ claimName: str, scopeToPolicyMapping: arr(o({ policyId: str, scope: str })) }),
          segregateByClientId: bool,
        }),
      }),
      clientCertificates: o({ allowlist: strs, enabled: bool }),
      customDomain: o({ certificates: strs, enabled: bool, name: str }),
      detailedActivityLogs: o({ enabled: bool }),
      detailedTracing: o({ enabled: bool }),
      eventHandlers: arr(o({ enabled: bool, id: str, name: str, trigger: str, type: str })),
      gatewayTags: o({ enabled: bool, tags: strs }),
      listenPath: o({ strip: bool, value: str }),
    }),
    upstream: o({
      certificatePinning: o({ enabled: bool, domainToPublicKeysMapping: arr(o({ domain: str, publicKeys: strs })) }),
      mutualTLS: o({ enabled: bool, domainToCertificateMapping: arr(o({ certificate: str, domain: str })) }),
      // per: seconds in most forms; the streams form shows an ISO 8601 duration. Smoothing is
      // accepted here as for keys (same bounds).
      rateLimit: o({ enabled: bool, rate: int.min(0), per: z.union([num.min(0), str]), smoothing: z.looseObject(smoothingFields) }),
      serviceDiscovery,
      test: o({ serviceDiscovery }),
      url: urlText,
    }),
  }))();
export type GwApiGateway = z.infer<typeof gwApiGatewaySchema>;

const GW = 'x-gw-api-gateway';
const serverVariable = /* @__PURE__ */ (() => z.looseObject({ default: str, enum: strs.optional(), description: str.optional() }))();

/** An OpenAPI 3.x document; `x-gw-api-gateway` is checked by the schema above when present. */
export const oasDocumentSchema = /* @__PURE__ */ (() =>
  z.looseObject({
    openapi: z.string().regex(/^3\.\d+\.\d+$/, 'must be an OpenAPI 3.x version such as 3.0.3'),
    info: z.looseObject({
      title: str,
      version: str,
      description: str.optional(),
      termsOfService: urlText.optional(),
      contact: o({ email: str, name: str, url: urlText }).optional(),
      license: o({ name: str, url: urlText }).optional(),
    }),
    paths: obj.optional(),
    components: obj.optional(),
    externalDocs: o({ description: str, url: urlText }).optional(),
    security: z.array(obj).max(LIMITS.arrayItems).optional(),
    servers: z
      .array(z.looseObject({ url: urlText, description: str.optional(), variables: z.record(z.string(), serverVariable).optional() }))
      .max(LIMITS.arrayItems)
      .optional(),
    tags: z
      .array(z.looseObject({ name: str, description: str.optional(), externalDocs: obj.optional() }))
      .max(LIMITS.arrayItems)
      .optional(),
    [GW]: gwApiGatewaySchema.optional(),
  }))();
export type OasDocument = z.infer<typeof oasDocumentSchema>;

/** A write body that is a full document must carry the extension (contract §7). */
export const oasWriteDocumentSchema = /* @__PURE__ */ (() => oasDocumentSchema.extend({ [GW]: gwApiGatewaySchema }))();

/**
 * Body of OAS create/update: a full document (it has `openapi`, `paths` or the extension), or
 * the bare x-gw-api-gateway object (contract §7). Picking the schema first, rather than a
 * union, keeps error paths exact (body.upstream.url, not "no union member matched").
 * normaliseOasWriteBody (domain/oas-document) then turns either form into a document.
 */
export const oasWriteBodySchema = /* @__PURE__ */ (() =>
  obj.transform((body, ctx) => {
    const full = 'openapi' in body || 'paths' in body || GW in body;
    if (!full && !['info', 'server', 'upstream', 'middleware'].some((k) => k in body)) {
      ctx.addIssue({ code: 'custom', message: `required: a document with ${GW}, or the ${GW} object itself`, path: [GW] });
      return z.NEVER;
    }
    const r = (full ? oasWriteDocumentSchema : gwApiGatewaySchema).safeParse(body);
    if (r.success) return r.data as Record<string, unknown>;
    for (const issue of r.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  }))();
