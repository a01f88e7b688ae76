/**
 * The service's two credential groups as openapi-fetch clients typed by the types openapi-typescript
 * generated from the service's own /openapi.json (generated/api.d.ts): a path, a parameter or a body
 * the document does not have does not compile. Credentials come from the environment only
 * (README "Configuration as code"), never from flags that end up in shell history.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/api';

export type GwClient = Client<paths>;

export interface Clients {
  /** `/api/...` with the organisation user's access key. */
  dashboard: GwClient;
  /** `/gw/...` with the installation's gateway secret; only kinds without a dashboard route use it. */
  gateway: GwClient;
}

export class GwctlError extends Error {}

/** An answer the tool did not expect: its status and the service's message. */
export class HttpError extends GwctlError {
  constructor(
    readonly status: number,
    readonly what: string,
    body: unknown,
  ) {
    super(`${what}: ${status} ${messageOf(body)}`);
  }
}

function messageOf(body: unknown): string {
  if (typeof body !== 'object' || body === null) return String(body ?? '');
  const b = body as Record<string, unknown>;
  const detail = JSON.stringify((b.Meta as Record<string, unknown> | null)?.errors ?? b.errors ?? '');
  return `${String(b.Message ?? b.message ?? '')}${detail && detail !== '""' ? ` ${detail}` : ''}`;
}

export interface Credentials {
  url: string;
  dashboardKey: string;
  gatewaySecret: string | undefined;
}

/** GW_URL and GW_DASHBOARD_KEY are required; GW_SECRET only for the kinds that need the gateway group. */
export function credentialsFrom(env: NodeJS.ProcessEnv): Credentials {
  const url = env.GW_URL?.replace(/\/+$/, '');
  const dashboardKey = env.GW_DASHBOARD_KEY;
  if (!url) throw new GwctlError('GW_URL is not set: the stage to talk to, such as http://127.0.0.1:8080');
  if (!dashboardKey) throw new GwctlError("GW_DASHBOARD_KEY is not set: the access key of a dashboard user of the organisation");
  return { url, dashboardKey, gatewaySecret: env.GW_SECRET || undefined };
}

export function clientsFor(c: Credentials): Clients {
  const dashboard = createClient<paths>({ baseUrl: c.url, headers: { authorization: `Bearer ${c.dashboardKey}` } });
  const gateway = createClient<paths>({ baseUrl: c.url });
  // Only a request that needs the gateway group asks for the secret, so a dashboard-only run works without it.
  gateway.use({
    onRequest({ request }) {
      if (!c.gatewaySecret) throw new GwctlError(`GW_SECRET is not set: ${request.method} ${new URL(request.url).pathname} needs the gateway group`);
      request.headers.set('x-gw-authorization', c.gatewaySecret);
      return request;
    },
  });
  return { dashboard, gateway };
}

/** The data of a 2xx answer, else an HttpError naming what was asked. */
export function must<T>(what: string, r: { data?: T; error?: unknown; response: Response }): T {
  if (!r.response.ok || r.data === undefined) throw new HttpError(r.response.status, what, r.error);
  return r.data;
}

/** `"3"` → `"3"`: the ETag exactly as the service sent it (If-Match compares strongly). */
export const etagOf = (r: { response: Response }) => r.response.headers.get('etag') ?? undefined;
