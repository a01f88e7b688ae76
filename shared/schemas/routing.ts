import * as z from 'zod';

const upstream = /* @__PURE__ */ (() => z.object({ scheme: z.enum(['http', 'https']), host: z.string(), port: z.number().int(), basePath: z.string() }))();
const key = /* @__PURE__ */ (() =>
  z.union([z.object({ keyless: z.literal(true) }), z.object({ keyless: z.literal(false), header: z.string(), queryParam: z.string().optional() })]))();
const cors = /* @__PURE__ */ (() =>
  z.object({
    allowedOrigins: z.array(z.string()),
    allowedMethods: z.array(z.string()),
    allowedHeaders: z.array(z.string()),
    exposedHeaders: z.array(z.string()),
    allowCredentials: z.boolean(),
    maxAgeSeconds: z.number().optional(),
    optionsPassthrough: z.boolean(),
  }))();
const route = /* @__PURE__ */ (() =>
  z.object({
    apiId: z.string(),
    orgId: z.string(),
    listenPath: z.string(),
    upstreams: z.array(upstream),
    stripListenPath: z.boolean(),
    preserveHost: z.boolean(),
    key,
    requestHeaders: z.object({ add: z.record(z.string(), z.string()), remove: z.array(z.string()) }),
    bodyLimitBytes: z.number().optional(),
    upstreamTimeoutSeconds: z.number().optional(),
    cors: cors.optional(),
  }))();

/** GET /gw/routing: the gateway model (shared/domain/gateway-model.ts) at a routing version. */
export const routingTableSchema = /* @__PURE__ */ (() =>
  z.object({
    version: z.number().int(),
    changed_at: z.string().nullable().describe('when the version last moved (null before any change)'),
    hosts: z.array(
      z.object({
        host: z.string(),
        routes: z.array(route),
        portal: z
          .object({ orgId: z.string(), home: z.string(), paths: z.array(z.string()), reserved: z.array(z.string()) })
          .optional()
          .describe("the organisation's developer portal on this domain: send `paths` to the control plane (ending in / a prefix), lead / to `home`"),
      }),
    ),
    skipped: z.array(z.object({ apiId: z.string(), orgId: z.string(), reason: z.string() })),
  }))();

/** GET /gw/routing/version. */
export const routingVersionSchema = /* @__PURE__ */ (() => z.object({ version: z.number().int(), changed_at: z.string().nullable() }))();
