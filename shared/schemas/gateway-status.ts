import * as z from 'zod';

/** A gateway's name, as it reports under it: a host name or any short token. */
export const GATEWAY_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Entries of `skipped` a report may carry (an item stays far below DynamoDB's 400 KB). */
const SKIPPED_REPORTED = 500;

/** PUT /gw/gateways/{gatewayID}: what a gateway following the routing table serves (gwctl gateway nginx reports it). */
export const gatewayReportSchema = /* @__PURE__ */ (() =>
  z
    .object({
      kind: z.enum(['nginx', 'api-gateway']).describe('the gateway that applies the routing table'),
      version: z.number().int().min(0).describe('the routing version of the table it serves (GET /gw/routing version)'),
      changed_at: z.string().datetime({ offset: true }).nullable().describe("that table's changed_at: when its version last moved"),
      applied_at: z.string().datetime({ offset: true }).nullable().describe('when it last applied a table (its own clock)'),
      failures: z.number().int().min(0).describe('failed renders, checks or reloads since it started'),
      last_error: z.string().max(2000).nullable().describe('the last failure, null once a table applied after it'),
      skipped: z
        .array(z.object({ api_id: z.string().max(256), reason: z.string().max(500) }).strict())
        .max(SKIPPED_REPORTED)
        .describe('the APIs of that table it left out, with why'),
    })
    .strict())();

export type GatewayReport = z.infer<typeof gatewayReportSchema>;

/** One gateway, as an API's page shows it (GET /api/apis/{apiID}/gateways). */
const apiOnGatewaySchema = /* @__PURE__ */ (() =>
  z.object({
    gateway_id: z.string(),
    kind: z.enum(['nginx', 'api-gateway']),
    state: z
      .enum(['applied', 'pending', 'left_out'])
      .describe('applied: the gateway serves a table that holds the API as it is now; pending: not yet; left_out: the gateway cannot serve it'),
    applied_at: z.string().nullable().describe('when the gateway last applied a table'),
    reported_at: z.string().describe('when the gateway last reported'),
    reason: z.string().nullable().describe('left_out: why; pending: whether the gateway is failing to apply changes'),
  }))();

export const apiGatewaysSchema = /* @__PURE__ */ (() => z.object({ gateways: z.array(apiOnGatewaySchema) }))();
