/**
 * The service as an openapi-fetch client typed by the types openapi-typescript generated from the
 * service's own /openapi.json (generated/api.d.ts): a path, a parameter or a body the document does
 * not have does not compile. Every kind gwctl manages has dashboard routes (kinds/), so one
 * credential serves: an organisation's user manages its configuration without the installation's
 * gateway secret. Credentials come from the environment only (docs/using/configuration-as-code.md),
 * never from flags that end up in shell history.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/api';

type GwClient = Client<paths>;

export interface Clients {
  /** `/api/...` with the organisation user's access key. */
  dashboard: GwClient;
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
}

/** The environment variables gwctl reads as its own credentials: no file may name them (credentials.ts). */
export const OWN_CREDENTIALS: readonly string[] = ['GW_DASHBOARD_KEY', 'GW_GATEWAY_SECRET', 'GW_ADMIN_SECRET'];

/** GW_URL without its trailing slashes: every command's stage. */
export function stageUrlFrom(env: NodeJS.ProcessEnv): string {
  const url = env.GW_URL?.replace(/\/+$/, '');
  if (!url) throw new GwctlError('GW_URL is not set: the stage to talk to, such as http://127.0.0.1:8080');
  return url;
}

/** GW_URL and GW_DASHBOARD_KEY, both required. */
/** The admin group's client (usage, offboard): the credential from GW_ADMIN_SECRET, never a flag. */
export function adminClient(env: NodeJS.ProcessEnv): Client<paths> {
  const secret = env.GW_ADMIN_SECRET;
  if (!secret) throw new GwctlError("GW_ADMIN_SECRET is not set: the installation's admin credential (Admin-Auth)");
  return createClient<paths>({ baseUrl: stageUrlFrom(env), headers: { 'admin-auth': secret } });
}

export function credentialsFrom(env: NodeJS.ProcessEnv): Credentials {
  const url = stageUrlFrom(env);
  const dashboardKey = env.GW_DASHBOARD_KEY;
  if (!dashboardKey) throw new GwctlError('GW_DASHBOARD_KEY is not set: the access key of a dashboard user of the organisation');
  return { url, dashboardKey };
}

export function clientsFor(c: Credentials): Clients {
  return { dashboard: createClient<paths>({ baseUrl: c.url, headers: { authorization: `Bearer ${c.dashboardKey}` }, fetch: readAgainOnce }) };
}

/** A read whose connection failed (a kept-alive socket the server had just closed) is sent once more; writes never are. */
async function readAgainOnce(request: Request): Promise<Response> {
  try {
    return await fetch(request.clone());
  } catch (e) {
    if (request.method !== 'GET') throw e;
    return fetch(request);
  }
}
/** The data of a 2xx answer, else an HttpError naming what was asked. */
export function must<T>(what: string, r: { data?: T; error?: unknown; response: Response }): T {
  if (!r.response.ok || r.data === undefined) throw new HttpError(r.response.status, what, r.error);
  return r.data;
}

/** `"3"` → `"3"`: the ETag exactly as the service sent it (If-Match compares strongly). */
export const etagOf = (r: { response: Response }) => r.response.headers.get('etag') ?? undefined;
