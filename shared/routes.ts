/**
 * THE route table. The CDK stack, the local stage, the OpenAPI document and the auth sweep tests
 * all loop over it. A route with `built: false` is planned in a later issue: it is listed here
 * and in the OpenAPI document as planned, but neither served nor deployed.
 */
import * as z from 'zod';
import { route, type RouteDef } from './route-def';
import { idSchema, looseObject, usernameSchema, pageQuerySchema, statusEnvelopeSchema, gatewayWriteSchema } from './schemas/common';
import { organisationInputSchema } from './schemas/organisations';
import { userCreateSchema, userListSchema, userSearchQuerySchema } from './schemas/users';
import { apiListQuerySchema, apiListSchema, oasGetQuerySchema } from './schemas/apis';
import { importQuerySchema, versionQuerySchema } from './schemas/import';
import { streamsQuerySchema } from './schemas/streams';
import { assetInputSchema, assetListQuerySchema, assetListSchema, assetSchema } from './schemas/assets';
import { classicApiSchema } from './schemas/api-classic';
import {
  keyAdminSchema, keyDashboardSchema, keyGatewaySchema, keyGetQuerySchema, keyResultSchema, keySessionSchema, keyUpdateQuerySchema,
  orgKeyQuerySchema, sessionCheckResultSchema, sessionCheckSchema,
} from './schemas/keys';
import { policyImportSchema, policySchema } from './schemas/policies';
import { oasDocumentSchema, oasWriteBodySchema } from './schemas/api-oas';
import { hookInputSchema, hookListQuerySchema, hookListSchema, hookSchema } from './schemas/hooks';
import { analyticsIngestResultSchema, analyticsIngestSchema, keyActivityParamsSchema, keyActivityQuerySchema, keyActivitySchema } from './schemas/analytics';
import { oauthClientListSchema, oauthClientSchema, oauthCreatedSchema, oauthCreateSchema, oauthUpdateSchema } from './schemas/oauth';

type ParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | ParamNames<Rest> : never;
type PathParamsSchema<P extends string> = z.ZodObject<{ [K in ParamNames<P>]: typeof idSchema }>;

/** Path parameters derived from the template: every `{name}` is an id (decisions §4). */
function pathParams<P extends string>(path: P): PathParamsSchema<P> | undefined {
  const names = [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]!);
  return (names.length ? z.object(Object.fromEntries(names.map((n) => [n, idSchema]))) : undefined) as PathParamsSchema<P> | undefined;
}

/** A route whose handler a later issue builds: documented, not served, not deployed. */
const planned = (def: Omit<RouteDef, 'built' | 'result'> & { result?: z.ZodType }) =>
  route({ params: pathParams(def.path), result: z.unknown(), ...def, built: false });

/** A served route; its path parameters are typed from the template unless it gives its own. */
function built<const D extends Omit<RouteDef, 'built'>>(def: D) {
  return { params: pathParams(def.path) as PathParamsSchema<D['path']>, ...def, built: true as const };
}

const healthSchema = z.object({ status: z.enum(['pass', 'fail']), description: z.string() });

export const routes = {
  // --- public -------------------------------------------------------------------------------
  hello: built({
    method: 'GET', path: '/hello', group: 'public', entry: 'functions/system/hello.ts', access: 'read',
    summary: 'Health check: 200 pass when storage answers, 503 fail when not', result: healthSchema,
  }),
  openapi: built({
    method: 'GET', path: '/openapi.json', group: 'public', entry: 'functions/system/openapi.ts', access: 'read',
    summary: 'This OpenAPI 3.1 document, generated from the route table', result: looseObject,
  }),

  // --- organisations and users (admin issues credentials; dashboard reads) -----------------------
  organisationsCreate: built({
    method: 'POST', path: '/admin/organisations', group: 'admin', entry: 'functions/organisations/create.ts',
    access: 'write', idempotent: true, summary: 'Create an organisation (spec 19); Meta is the new id; 409 when the id is taken',
    body: organisationInputSchema, result: statusEnvelopeSchema,
  }),
  usersCreate: built({
    method: 'POST', path: '/admin/users', group: 'admin', entry: 'functions/users/create.ts', access: 'write',
    idempotent: true,
    summary: 'Create a dashboard user and issue its access key (shown once, in Message and Meta.access_key); 422 unknown org, 409 e-mail taken',
    body: userCreateSchema, result: statusEnvelopeSchema,
  }),
  usersList: built({
    method: 'GET', path: '/api/users', group: 'dashboard', entry: 'functions/users/list.ts', access: 'read',
    summary: "List the caller's organisation's users (spec 5)", query: pageQuerySchema, result: userListSchema,
  }),
  usersSearch: built({
    method: 'GET', path: '/api/users/search', group: 'dashboard', entry: 'functions/users/search.ts', access: 'read',
    summary: 'Search users by a case-insensitive substring of the e-mail (spec 15, deprecated)',
    query: userSearchQuerySchema, result: userListSchema,
  }),

  // --- API definitions (issue 4) -----------------------------------------------------------------
  apisList: built({
    method: 'GET', path: '/api/apis', group: 'dashboard', entry: 'functions/apis/list.ts', access: 'read',
    summary: "List the caller's organisation's APIs (spec 4): paged, sort by name, created_at or updated_at (- for descending)",
    query: apiListQuerySchema, result: apiListSchema,
  }),
  oasCreate: built({
    method: 'POST', path: '/gw/apis/oas', group: 'gateway', entry: 'functions/apis/oas-create.ts', access: 'write',
    idempotent: true, summary: 'Create an OAS API (spec 6) from a document with x-gw-api-gateway or the bare extension; 409 taken id',
    query: versionQuerySchema, body: oasWriteBodySchema, result: gatewayWriteSchema,
  }),
  oasUpdate: built({
    method: 'PUT', path: '/gw/apis/oas/{apiID}', group: 'gateway', entry: 'functions/apis/oas-update.ts', access: 'write',
    etag: true, summary: 'Replace an OAS API (spec 12); 400 when the body names another id',
    query: versionQuerySchema, body: oasWriteBodySchema, result: gatewayWriteSchema,
  }),
  oasGet: built({
    method: 'GET', path: '/gw/apis/oas/{apiID}', group: 'gateway', entry: 'functions/apis/oas-get.ts', access: 'read',
    summary: 'Get an OAS API (spec 13); mode=public leaves out x-gw-api-gateway', query: oasGetQuerySchema, result: oasDocumentSchema,
  }),
  classicCreate: built({
    method: 'POST', path: '/gw/apis', group: 'gateway', entry: 'functions/apis/classic-create.ts', access: 'write',
    idempotent: true, summary: 'Create a classic API; 409 when api_id is taken', body: classicApiSchema, result: gatewayWriteSchema,
  }),
  classicGet: built({
    method: 'GET', path: '/gw/apis/{apiID}', group: 'gateway', entry: 'functions/apis/classic-get.ts', access: 'read',
    summary: 'Get any API in classic form (spec 8); OAS APIs converted, with is_oas true', result: classicApiSchema,
  }),
  apisDelete: built({
    method: 'DELETE', path: '/gw/apis/{apiID}', group: 'gateway', entry: 'functions/apis/delete.ts', access: 'write',
    etag: true, summary: 'Delete an API; a version leaves its base\'s version list in the same transaction; 409 for a base that still has versions', result: gatewayWriteSchema,
  }),

  // --- keys, policies, quotas (issue 5) ----------------------------------------------------------
  keysCreate: built({
    method: 'POST', path: '/gw/keys/create', group: 'gateway', entry: 'functions/keys/create.ts', access: 'write', idempotent: true,
    summary: 'Create a key (spec 17); key (shown once) and key_hash in the result; 400 without rights or policies, 422 unknown API or policy',
    body: keyGatewaySchema, result: gatewayWriteSchema,
  }),
  keysGet: built({
    method: 'GET', path: '/gw/keys/{keyID}', group: 'gateway', entry: 'functions/keys/get.ts', access: 'read',
    summary: 'Get a key (spec 18); hashed=true when the path holds the hash; quota_remaining is live', query: keyGetQuerySchema, result: keySessionSchema,
  }),
  keysDelete: built({
    method: 'DELETE', path: '/gw/keys/{keyID}', group: 'gateway', entry: 'functions/keys/delete.ts', access: 'write',
    summary: 'Delete a key with its live quota; hashed=true when the path holds the hash', query: keyGetQuerySchema, result: gatewayWriteSchema,
  }),
  keysDashboardUpdate: built({
    method: 'PUT', path: '/api/apis/{apiID}/keys/{keyID}', group: 'dashboard', entry: 'functions/keys/dashboard-update.ts', access: 'write',
    etag: true, summary: 'Replace a key of the caller\'s organisation that grants the API (spec 3); resets the live quota unless suppress_reset=1',
    params: z.object({ apiID: idSchema, keyID: usernameSchema }),
    query: keyUpdateQuerySchema, body: keyDashboardSchema, result: keyResultSchema,
  }),
  orgKeysAdminCreate: built({
    method: 'POST', path: '/admin/org/keys', group: 'admin', entry: 'functions/keys/admin-create.ts', access: 'write', idempotent: true,
    summary: 'Create a key for the organisation in org_id (spec 9); 422 unknown organisation, API or policy', body: keyAdminSchema, result: keyResultSchema,
  }),
  orgKeysUpdate: built({
    method: 'PUT', path: '/gw/org/keys/{orgID}', group: 'gateway', entry: 'functions/keys/org-update.ts', access: 'write',
    summary: "Set an organisation's session (spec 14): its quota caps all its keys; reset_quota=1 restarts it; 404 unknown organisation",
    query: orgKeyQuerySchema, body: keyGatewaySchema, result: gatewayWriteSchema,
  }),
  policiesCreate: built({
    method: 'POST', path: '/gw/policies', group: 'gateway', entry: 'functions/policies/create.ts', access: 'write', idempotent: true,
    summary: 'Create a policy under its id (spec 20); 409 when the id is taken', body: policySchema, result: gatewayWriteSchema,
  }),
  policiesGet: built({
    method: 'GET', path: '/gw/policies/{policyID}', group: 'gateway', entry: 'functions/policies/get.ts', access: 'read',
    summary: 'Get a policy', result: policySchema,
  }),
  policiesUpdate: built({
    method: 'PUT', path: '/gw/policies/{policyID}', group: 'gateway', entry: 'functions/policies/update.ts', access: 'write', etag: true,
    summary: 'Replace a policy; 400 when the body names another id', body: policySchema, result: gatewayWriteSchema,
  }),
  policiesDelete: built({
    method: 'DELETE', path: '/gw/policies/{policyID}', group: 'gateway', entry: 'functions/policies/delete.ts', access: 'write', etag: true,
    summary: 'Delete a policy', result: gatewayWriteSchema,
  }),
  policiesImport: built({
    method: 'POST', path: '/admin/policies/import', group: 'admin', entry: 'functions/policies/import.ts', access: 'write',
    summary: 'Import policies (spec 10): all validated before any is written; ids kept; Meta maps each id to true',
    body: policyImportSchema, result: statusEnvelopeSchema,
  }),
  sessionsCheck: built({
    method: 'POST', path: '/gw/sessions/check', group: 'gateway', entry: 'functions/sessions/check.ts', access: 'write',
    summary: 'Data-plane check (decisions §10): spends one unit of the key\'s and its organisation\'s quota; 403/429 with a reason',
    body: sessionCheckSchema, result: sessionCheckResultSchema,
  }),

  // --- import, templates, versions, streams (issue 9) --------------------------------------------
  oasImport: built({
    method: 'POST', path: '/api/apis/oas/import', group: 'dashboard', entry: 'functions/apis/oas-import.ts', access: 'write',
    idempotent: true, bodyKind: 'raw', contentTypes: ['application/json', 'application/x-yaml', 'application/yaml', 'text/yaml', 'text/x-yaml'],
    summary: 'Import an OpenAPI document (spec 16), JSON, YAML or {"url"}; Meta is the new id, ID the api_id; 415 other types, 422 unknown templateID or base',
    query: importQuerySchema, result: statusEnvelopeSchema,
    // The validator reads its JSON schemas from its own package directory at run time.
    nodeModules: ['@seriousme/openapi-schema-validator'],
  }),
  streamsPatch: built({
    method: 'PATCH', path: '/api/apis/streams/{apiId}', group: 'dashboard', entry: 'functions/apis/streams-patch.ts', access: 'write',
    etag: true, bodyKind: 'raw', contentTypes: ['application/vnd.gw.streams.oas'],
    summary: 'Patch a streams API (spec 7); 415 other media types, 400 without x-gw-api-gateway or x-gw-streaming.streams, 404 unknown API',
    query: streamsQuerySchema, result: statusEnvelopeSchema,
  }),
  assetsCreate: built({
    method: 'POST', path: '/api/assets', group: 'dashboard', entry: 'functions/assets/create.ts', access: 'write', idempotent: true,
    summary: 'Create a template (asset); Meta is the new _id, ID the custom id; 409 custom id taken, 422 kind other than oas-template',
    body: assetInputSchema, result: statusEnvelopeSchema,
  }),
  assetsList: built({
    method: 'GET', path: '/api/assets', group: 'dashboard', entry: 'functions/assets/list.ts', access: 'read',
    summary: "List the caller's organisation's templates, paged", query: assetListQuerySchema, result: assetListSchema,
  }),
  assetsGet: built({
    method: 'GET', path: '/api/assets/{assetID}', group: 'dashboard', entry: 'functions/assets/get.ts', access: 'read',
    summary: 'Get a template by _id or custom id (spec 1)', result: assetSchema,
  }),
  assetsUpdate: built({
    method: 'PUT', path: '/api/assets/{assetID}', group: 'dashboard', entry: 'functions/assets/update.ts', access: 'write', etag: true,
    summary: 'Replace a template (by _id or custom id); 409 custom id taken, 412 stale If-Match, 422 kind',
    body: assetInputSchema, result: statusEnvelopeSchema,
  }),
  assetsDelete: built({
    method: 'DELETE', path: '/api/assets/{assetID}', group: 'dashboard', entry: 'functions/assets/delete.ts', access: 'write', etag: true,
    summary: 'Delete a template (by _id or custom id)', result: statusEnvelopeSchema,
  }),

  // --- webhooks, OAuth clients, analytics (issue 6) ---------------------------------------------
  hooksCreate: built({
    method: 'POST', path: '/api/hooks', group: 'dashboard', entry: 'functions/hooks/create.ts', access: 'write', idempotent: true,
    summary: 'Create a webhook (spec 22): method (DELETE, GET, PUT, POST, PATCH) and an absolute http(s) target_path required; Meta is the new id',
    body: hookInputSchema, result: statusEnvelopeSchema,
  }),
  hooksList: built({
    method: 'GET', path: '/api/hooks', group: 'dashboard', entry: 'functions/hooks/list.ts', access: 'read',
    summary: "List the caller's organisation's webhooks in creation order, paged", query: hookListQuerySchema, result: hookListSchema,
  }),
  hooksGet: built({
    method: 'GET', path: '/api/hooks/{hookId}', group: 'dashboard', entry: 'functions/hooks/get.ts', access: 'read',
    summary: 'Get a webhook; 404 when unknown or of another organisation', result: hookSchema,
  }),
  hooksUpdate: built({
    method: 'PUT', path: '/api/hooks/{hookId}', group: 'dashboard', entry: 'functions/hooks/update.ts', access: 'write', etag: true,
    summary: 'Replace a webhook (spec 21): omitted members are emptied; 404 when unknown', body: hookInputSchema, result: statusEnvelopeSchema,
  }),
  hooksDelete: built({
    method: 'DELETE', path: '/api/hooks/{hookId}', group: 'dashboard', entry: 'functions/hooks/delete.ts', access: 'write', etag: true,
    summary: 'Delete a webhook; 404 when unknown', result: statusEnvelopeSchema,
  }),
  oauthCreate: built({
    method: 'POST', path: '/gw/oauth/clients/create', group: 'gateway', entry: 'functions/oauth/create.ts', access: 'write', idempotent: true,
    summary:
      'Create an OAuth client: answers the client with its generated secret, shown this once (stored hashed); ' +
      '422 unknown API or policy, 400 a policy that does not grant the API, 409 a taken client_id',
    body: oauthCreateSchema, result: oauthCreatedSchema,
  }),
  oauthUpdate: built({
    method: 'PUT', path: '/gw/oauth/clients/{apiID}/{keyName}', group: 'gateway', entry: 'functions/oauth/update.ts', access: 'write', etag: true,
    summary:
      'Update an OAuth client (spec 2; keyName is the client id): replaces redirect_uri, policy_id, meta_data and description (omitted ones are emptied), ' +
      'keeps id and secret; 404 unknown API or client, 422 unknown policy, 400 a policy that does not grant the API',
    body: oauthUpdateSchema, result: oauthClientSchema,
  }),
  oauthList: built({
    method: 'GET', path: '/gw/oauth/clients/{apiID}', group: 'gateway', entry: 'functions/oauth/list.ts', access: 'read',
    summary: "List an API's OAuth clients, without secrets; 404 unknown API", result: oauthClientListSchema,
  }),
  oauthDelete: built({
    method: 'DELETE', path: '/gw/oauth/clients/{apiID}/{keyName}', group: 'gateway', entry: 'functions/oauth/delete.ts', access: 'write', etag: true,
    summary: 'Delete an OAuth client; 404 unknown API or client', result: gatewayWriteSchema,
  }),
  analyticsIngest: built({
    method: 'POST', path: '/gw/analytics', group: 'gateway', entry: 'functions/analytics/ingest.ts', access: 'write',
    summary:
      'Report request records (at most 1000 a call) into hourly per-key counters. Answers {status:"ok",action:"added",stored,unknown_keys,counters}: ' +
      'records whose key_hash names no key (or a key of another org than their org_id) are counted in unknown_keys, not stored',
    body: analyticsIngestSchema, result: analyticsIngestResultSchema,
  }),
  keyActivity: built({
    method: 'GET', path: '/api/activity/keys/{keyHash}/{startDay}/{startMonth}/{startYear}/{EndDay}/{EndMonth}/{EndYear}', group: 'dashboard',
    entry: 'functions/analytics/key-activity.ts', access: 'read',
    summary:
      'Key analytics (spec 11): one row per (API, path) over whole days start..end (at most 366), busiest first, paged; ' +
      '400 for a bad or reversed date, 404 for a key of another organisation',
    params: keyActivityParamsSchema, query: keyActivityQuerySchema, result: keyActivitySchema,
  }),
} satisfies Record<string, RouteDef>;

export type RouteName = keyof typeof routes;
export const routeList: Array<RouteDef & { name: string }> = Object.entries(routes).map(([name, r]) => ({ name, ...r }));
export const builtRoutes = routeList.filter((r) => r.built);
