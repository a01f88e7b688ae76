/**
 * The self-service routes of issue 27 as the lead fixed their shapes (SELF-SERVICE-API.md), in
 * openapi-typescript's form, for the routes the generated document does not have yet. `Paths`
 * (./paths.ts) takes a route from here only while the document lacks it: once the service serves
 * a route, its generated type replaces this one and the console is checked against the real
 * contract. Delete each entry when the document has it (the build's type-check then names any
 * page that relied on a shape the service does not have).
 */
import type { components } from './openapi';

type Schemas = components['schemas'];
type Envelope = Schemas['DashboardError'];
type Json<T> = { headers: { [name: string]: unknown }; content: { 'application/json': T } };
type Errors = { 400: Json<Envelope>; 401: Json<Envelope>; 403: Json<Envelope>; 404: Json<Envelope>; 429: Json<Envelope> };
type Params<Path = never, Query = never, Header = never> = { query?: Query; header?: Header; cookie?: never } & ([Path] extends [never] ? { path?: never } : { path: Path });
type Read<P, Ok> = { parameters: P; requestBody?: never; responses: { 200: Json<Ok> } & Errors };

/** One period of `GET /api/usage/...` (zero-filled). */
export interface UsageRow {
  period: string;
  hits: number;
  success: number;
  error: number;
  latency_avg: number;
  latency_max: number;
  upstream_latency_avg: number;
}
export interface Usage {
  resolution: 'hour' | 'day';
  from: string;
  to: string;
  data: UsageRow[];
}

/** `GET /api/users/me`: who the access key belongs to, with the effective level of every group. */
export interface Me {
  id: string;
  org_id: string;
  email_address: string;
  first_name: string;
  last_name: string;
  user_permissions: Record<string, string>;
  active: boolean;
}

type Range = { startDay: string; startMonth: string; startYear: string; EndDay: string; EndMonth: string; EndYear: string };
type UsageQuery = { resolution?: 'hour' | 'day' };

export interface PendingPaths {
  '/api/users/me': { parameters: Params; get: Read<Params, Me> };
  '/api/usage/apis/{apiID}/{startDay}/{startMonth}/{startYear}/{EndDay}/{EndMonth}/{EndYear}': {
    parameters: Params<{ apiID: string } & Range>;
    get: Read<Params<{ apiID: string } & Range, UsageQuery>, Usage>;
  };
  '/api/usage/keys/{keyHash}/{startDay}/{startMonth}/{startYear}/{EndDay}/{EndMonth}/{EndYear}': {
    parameters: Params<{ keyHash: string } & Range>;
    get: Read<Params<{ keyHash: string } & Range, UsageQuery>, Usage>;
  };
}
