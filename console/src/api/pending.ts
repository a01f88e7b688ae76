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
type Errors = { 400: Json<Envelope>; 401: Json<Envelope>; 403: Json<Envelope>; 404: Json<Envelope>; 412: Json<Envelope>; 422: Json<Envelope>; 429: Json<Envelope> };
type Paging = { p?: number; page_size?: number; cursor?: string };
type Params<Path = never, Query = never, Header = never> = { query?: Query; header?: Header; cookie?: never } & ([Path] extends [never] ? { path?: never } : { path: Path });
type Read<P, Ok> = { parameters: P; requestBody?: never; responses: { 200: Json<Ok> } & Errors };
type Write<P, Body, Ok> = { parameters: P; requestBody: { content: { 'application/json': Body } }; responses: { 200: Json<Ok> } & Errors };

type Ok = { Status: 'OK'; Message: string; Meta: null };
type OkId = { Status: 'OK'; Message: string; Meta: string };
type Created = { Status: 'OK'; Message: string; Meta: string; ID: string };
type IfMatch = { 'If-Match'?: string };
type Idempotent = { 'Idempotency-Key'?: string };
type VersionQuery = { base_api_id?: string; base_api_version_name?: string; new_version_name?: string; set_default?: boolean };

/** One key of `GET /api/keys` (never its clear value). */
export interface KeyListEntry {
  key_hash: string;
  alias: string;
  apis: string[];
  apply_policies: string[];
  expires: number;
  is_inactive: boolean;
  quota_max: number;
  quota_remaining: number;
  quota_renews: number;
  date_created: string;
  last_updated: string;
}

/** A key session as the dashboard form sends it. */
export type KeySession = Schemas['KeyDashboard'];
/** `GET/PUT /api/keys/{keyID}`: the effective session with the live quota. */
export interface KeyDetail {
  api_model: Record<string, unknown>;
  key_hash: string;
  data: Schemas['Key'];
}

export type Policy = Schemas['Policy'];
export type PolicyInput = Schemas['PolicyInput'];

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
  '/api/portal/policies': {
    parameters: Params;
    get: Read<Params<never, Paging>, { Data: Policy[]; Pages: number; next_cursor?: string }>;
    post: Write<Params<never, never, Idempotent>, Omit<PolicyInput, 'id'> & { id?: string }, Created>;
  };
  '/api/portal/policies/{policyID}': {
    parameters: Params<{ policyID: string }>;
    get: Read<Params<{ policyID: string }>, Policy>;
    put: Write<Params<{ policyID: string }, never, IfMatch>, PolicyInput, OkId>;
    delete: Read<Params<{ policyID: string }, never, IfMatch>, OkId>;
  };
  '/api/usage/apis/{apiID}/{startDay}/{startMonth}/{startYear}/{EndDay}/{EndMonth}/{EndYear}': {
    parameters: Params<{ apiID: string } & Range>;
    get: Read<Params<{ apiID: string } & Range, UsageQuery>, Usage>;
  };
  '/api/usage/keys/{keyHash}/{startDay}/{startMonth}/{startYear}/{EndDay}/{EndMonth}/{EndYear}': {
    parameters: Params<{ keyHash: string } & Range>;
    get: Read<Params<{ keyHash: string } & Range, UsageQuery>, Usage>;
  };
}
