/**
 * The developer portal (docs/using/developer-portal.md): the users' side under /api/portal
 * (`portal` permission), the public catalogue, sign-up and sign-in, and the developer routes (a
 * developer session of the path's portal). Part of the route table (shared/routes.ts).
 */
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import { okEnvelope, okNullSchema } from '../schemas/common';
import { usageSchema } from '../schemas/analytics';
import {
  catalogueEntryBodySchema,
  catalogueEntryListSchema,
  catalogueEntryResultSchema,
  developerKeyListSchema,
  developerListQuerySchema,
  developerListSchema,
  developerResultSchema,
  developerSchema,
  developerUpdateSchema,
  developerUsageQuerySchema,
  invitationBodySchema,
  invitationResultSchema,
  issuedKeySchema,
  keyRequestBodySchema,
  keyRequestListQuerySchema,
  keyRequestListSchema,
  keyRequestResultSchema,
  myKeyRequestListSchema,
  portalSettingsResultSchema,
  portalSettingsSchema,
  publicCatalogueSchema,
  publicDocumentSchema,
  refuseBodySchema,
  signInResultSchema,
  signInSchema,
  signUpResultSchema,
  signUpSchema,
} from '../schemas/portal';

/** What every public and developer route reads first: the portal's settings (off: 404). */
const PORTAL = 'portal_settings';
/** What the developer credential reads: the session, then its developer. */
const SESSION = ['developer_session', 'developer', PORTAL] as const;
const noPortal = 'The organisation has no portal, or it is off';
/** What making a plan's key touches (the key, its live quota, its organisation's count, the plan's policy). */
const KEY_MAKING = ['key', 'org', 'policy', 'catalogue_entry'] as const;

// --- the organisation's users -------------------------------------------------------------------
export const portalSettingsGet = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/portal/settings',
    group: 'dashboard',
    access: 'read',
    permission: 'portal',
    tableActions: ['GetItem'],
    tableEntities: ['access_key', PORTAL],
    summary: "The caller's organisation's portal settings (off and sign-up by approval until set)",
    description: 'enabled, the sign-up mode (open, invitation or approval) and the title the portal shows.',
    success: 'The settings',
    result: portalSettingsResultSchema,
  }))();

export const portalSettingsPut = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/api/portal/settings',
    group: 'dashboard',
    access: 'write',
    permission: 'portal',
    tableActions: ['GetItem', 'BatchGetItem', 'PutItem', 'ConditionCheckItem', 'UpdateItem'],
    tableEntities: ['access_key', 'hook', PORTAL, 'domain_grant', 'routing_version'],
    summary: "Set the caller's organisation's portal: on or off, the sign-up mode, its title, its domain and the webhooks of its events",
    description:
      'Off, every public and developer route of the portal answers 404, as for an organisation without one; sessions stay but reach nothing. ' +
      'domain names a domain granted to the organisation on which gateways serve the portal (GET /gw/routing carries it). ' +
      'hook_ids name webhooks of the organisation that receive every portal event.',
    statuses: { 422: "A webhook named is not the organisation's, or the domain is not granted to it" },
    success: 'Settings stored; Meta is them',
    body: portalSettingsSchema,
    result: okEnvelope(portalSettingsResultSchema),
  }))();

export const portalCatalogueList = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/portal/catalogue',
    group: 'dashboard',
    access: 'read',
    permission: 'portal',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['access_key', 'catalogue_entry'],
    summary: "The caller's organisation's catalogue: its published APIs with their plans",
    description: 'One entry per published API, with the policy behind each plan.',
    success: 'The catalogue',
    result: catalogueEntryListSchema,
  }))();

export const portalCataloguePut = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/api/portal/catalogue/{apiID}',
    group: 'dashboard',
    access: 'write',
    permission: 'portal',
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem'],
    tableEntities: ['access_key', 'api', 'api_db_id', 'policy', 'catalogue_entry'],
    summary: 'Publish an API of the organisation in its portal with one or more plans (or replace its entry)',
    description:
      'Each plan names a policy of the organisation that grants the API: every key the plan issues applies it (its rights, quota and rate). ' +
      "approval auto grants a request at once; manual waits for a user with portal write. title defaults to the API's name.",
    success: 'Published; Meta is the entry',
    statuses: { 404: "No such API in the caller's organisation", 422: "A plan's policy is not the organisation's, or does not grant the API" },
    body: catalogueEntryBodySchema,
    result: catalogueEntryResultSchema,
  }))();

export const portalCatalogueDelete = /* @__PURE__ */ (() =>
  route({
    method: 'DELETE',
    path: '/api/portal/catalogue/{apiID}',
    group: 'dashboard',
    access: 'write',
    permission: 'portal',
    tableActions: ['DeleteItem', 'PutItem'],
    tableEntities: ['access_key', 'catalogue_entry', 'deletion'],
    summary: 'Take an API out of the portal (keys already issued stay until revoked)',
    description: 'New requests for its plans are refused (404); keys it issued keep working until a user or their developer revokes them.',
    success: 'Unpublished',
    statuses: { 404: 'The API is not in the catalogue' },
    result: okNullSchema,
  }))();

export const portalDevelopersList = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/portal/developers',
    group: 'dashboard',
    access: 'read',
    permission: 'portal',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['access_key'],
    summary: "The developers of the caller's organisation's portal in sign-up order, of one state when asked",
    description: 'Paged (contract §5). No password or session is ever shown.',
    success: 'A page of developers',
    query: developerListQuerySchema,
    result: developerListSchema,
  }))();

export const portalDevelopersUpdate = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/api/portal/developers/{developerID}',
    group: 'dashboard',
    access: 'write',
    permission: 'portal',
    tableActions: ['GetItem', 'UpdateItem'],
    tableEntities: ['access_key', 'developer'],
    summary: 'Approve (active) or disable a developer',
    description: "A disabled developer's sessions are refused at once; the keys it holds stay until revoked (they are keys of the organisation).",
    success: 'Developer updated; Meta is the developer',
    statuses: { 404: "No such developer in the caller's organisation" },
    body: developerUpdateSchema,
    result: developerResultSchema,
  }))();

export const portalInvitationsCreate = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/api/portal/invitations',
    group: 'dashboard',
    access: 'write',
    permission: 'portal',
    idempotent: true,
    secrets: ['Meta.invitation'],
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['access_key', 'developer_invitation', 'idempotency'],
    summary: 'Invite a developer by e-mail: the invitation (shown once) signs that e-mail up, active at once, whatever the mode',
    description: 'Valid for 7 days and for one sign-up of that e-mail; only its hash is kept. Hand it over by your own means.',
    success: 'Invitation issued; Meta.invitation is shown this once',
    body: invitationBodySchema,
    result: invitationResultSchema,
  }))();

export const portalKeyRequestsList = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/portal/key-requests',
    group: 'dashboard',
    access: 'read',
    permission: 'portal',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['access_key'],
    summary: "The caller's organisation's key requests of one state (pending by default), oldest first",
    description: 'Paged (contract §5): a queue to work through.',
    success: 'A page of requests',
    query: keyRequestListQuerySchema,
    result: keyRequestListSchema,
  }))();

export const portalKeyRequestsApprove = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/api/portal/key-requests/{requestID}/approve',
    group: 'dashboard',
    access: 'write',
    permission: 'portal',
    tableActions: ['GetItem', 'PutItem'],
    tableEntities: ['access_key', 'key_request'],
    summary: 'Approve a pending key request: its developer collects the key (shown to them once)',
    description: 'Only a pending request; two users deciding at once: one wins, the other gets 409.',
    success: 'Approved; Meta is the request',
    statuses: { 404: "No such request in the caller's organisation", 409: 'The request is not pending (any more)' },
    result: keyRequestResultSchema,
  }))();

export const portalKeyRequestsRefuse = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/api/portal/key-requests/{requestID}/refuse',
    group: 'dashboard',
    access: 'write',
    permission: 'portal',
    tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
    tableEntities: ['access_key', 'key_request', 'developer'],
    summary: 'Refuse a pending key request, with a reason its developer reads',
    description: 'Only a pending request; two users deciding at once: one wins, the other gets 409.',
    success: 'Refused; Meta is the request',
    statuses: { 404: "No such request in the caller's organisation", 409: 'The request is not pending (any more)' },
    body: refuseBodySchema,
    result: keyRequestResultSchema,
  }))();

// --- public --------------------------------------------------------------------------------------
export const portalCatalogue = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/portal/{orgID}/catalogue',
    group: 'public',
    orgLimit: 'portal',
    access: 'read',
    tableActions: ['GetItem', 'BatchGetItem', 'Query'],
    tableEntities: [PORTAL, 'catalogue_entry', 'policy', 'api'],
    summary: "An organisation's portal: its title, sign-up mode and published APIs with what each plan gives",
    description: 'Needs no credential. A plan shows its quota and rate, never its policy; an API deleted since it was published is left out.',
    success: 'The catalogue',
    statuses: { 404: noPortal },
    result: publicCatalogueSchema,
  }))();

export const portalDocument = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/portal/{orgID}/catalogue/{apiID}/openapi',
    group: 'public',
    orgLimit: 'portal',
    access: 'read',
    tableActions: ['GetItem', 'Query'],
    tableEntities: [PORTAL, 'catalogue_entry', 'api'],
    summary: "A published API's OpenAPI document, as mode=public shows it (a classic API's: a minimal one)",
    description: 'Needs no credential. The gateway extension is left out, as GET /gw/apis/oas/{apiID}?mode=public does.',
    success: 'The document',
    statuses: { 404: `${noPortal}, or the API is not published in it` },
    result: publicDocumentSchema,
  }))();

export const portalSignUp = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/portal/{orgID}/developers',
    group: 'public',
    orgLimit: 'portal',
    access: 'write',
    tableActions: ['GetItem', 'PutItem', 'DeleteItem'],
    tableEntities: [PORTAL, 'developer', 'developer_email', 'developer_invitation'],
    summary: "Sign up to an organisation's portal: active at once (open, or with an invitation) or pending a user's approval",
    description:
      'The answer is the same whether the e-mail was new or already signed up (then nothing changes): a sign-up never tells which e-mails exist. ' +
      'The password (12 to 128 characters) is kept only as its scrypt hash.',
    success: 'Sign-up received; Meta.state says whether it is active or awaits approval',
    statuses: { 400: 'The portal takes sign-ups by invitation only and none was sent', 403: 'The invitation is not valid for this e-mail', 404: noPortal },
    body: signUpSchema,
    result: signUpResultSchema,
  }))();

export const portalSignIn = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/portal/{orgID}/sessions',
    group: 'public',
    orgLimit: 'portal',
    viewerAddress: true,
    access: 'write',
    tableActions: ['GetItem', 'UpdateItem', 'PutItem'],
    tableEntities: [PORTAL, 'sign_in_window', 'developer_email', 'developer', 'developer_session'],
    summary: 'Sign in as a developer of the portal: a session token (12 hours) for the developer routes of this portal only',
    description:
      'At most 10 attempts per account and 100 per source address in 15 minutes, counted before the password is checked (429 with ' +
      'Retry-After). One 401 for an unknown e-mail and a wrong password.',
    success: 'Signed in; Meta.token is the session, sent as Authorization: Bearer',
    statuses: { 401: 'E-mail or password not valid', 403: 'The developer awaits approval or is disabled', 404: noPortal, 429: 'Too many attempts' },
    body: signInSchema,
    result: signInResultSchema,
  }))();

// --- a developer's own -----------------------------------------------------------------------------
export const portalSignOut = /* @__PURE__ */ (() =>
  route({
    method: 'DELETE',
    path: '/portal/{orgID}/session',
    group: 'developer',
    orgLimit: 'portal',
    access: 'write',
    tableActions: ['GetItem', 'DeleteItem'],
    // The session and its developer only: signing out works whether the portal is on or not.
    tableEntities: ['developer_session', 'developer'],
    summary: 'Sign out: the session is refused from now on',
    description: 'Ends only the session sent.',
    success: 'Signed out',
    result: okNullSchema,
  }))();

export const portalMe = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/portal/{orgID}/developer',
    group: 'developer',
    orgLimit: 'portal',
    access: 'read',
    tableActions: ['GetItem'],
    tableEntities: SESSION,
    summary: 'The signed-in developer',
    description: 'Never the password.',
    success: 'The developer',
    result: developerSchema,
  }))();

export const portalMyRequests = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/portal/{orgID}/key-requests',
    group: 'developer',
    orgLimit: 'portal',
    access: 'read',
    tableActions: ['GetItem', 'Query'],
    tableEntities: SESSION,
    summary: "The developer's key requests, newest first, with their state and a refusal's reason",
    description: 'Only their own.',
    success: 'The requests',
    result: myKeyRequestListSchema,
  }))();

export const portalRequestKey = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/portal/{orgID}/key-requests',
    group: 'developer',
    orgLimit: 'portal',
    access: 'write',
    idempotent: true,
    secrets: ['Meta.key'],
    tableActions: ['GetItem', 'BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: [...SESSION, 'key_request', 'idempotency', ...KEY_MAKING],
    summary: "Request access to a plan of a published API: an automatic plan's key is made and shown at once (this once)",
    description: `A manual plan's request waits for a user; the developer then collects the key. At most 20 pending or approved requests per developer (409).`,
    success: 'Requested; Meta.request, and Meta.key (shown this once) on an automatic plan',
    statuses: { 404: 'No such plan of a published API', 409: 'The developer holds 20 pending or approved requests' },
    body: keyRequestBodySchema,
    result: issuedKeySchema,
  }))();

export const portalCollectKey = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/portal/{orgID}/key-requests/{requestID}/key',
    group: 'developer',
    orgLimit: 'portal',
    access: 'write',
    idempotent: true,
    secrets: ['Meta.key'],
    tableActions: ['GetItem', 'BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: [...SESSION, 'key_request', 'idempotency', ...KEY_MAKING],
    summary: "Collect an approved request's key: made now and shown this once",
    description: 'A second collection is 409: the secret is never stored. Roll the key for a new one.',
    success: 'Meta.key is the clear key, shown this once',
    statuses: { 404: "No such request of the developer's", 409: 'The request is not approved, or its key was collected already' },
    result: issuedKeySchema,
  }))();

export const portalMyKeys = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/portal/{orgID}/keys',
    group: 'developer',
    orgLimit: 'portal',
    access: 'read',
    tableActions: ['GetItem', 'BatchGetItem', 'Query'],
    tableEntities: [...SESSION, 'key', 'policy'],
    summary: "The developer's keys by hash with their plan, limits and live quota_remaining",
    description: 'Never a clear key.',
    success: 'The keys',
    result: developerKeyListSchema,
  }))();

export const portalRollKey = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/portal/{orgID}/keys/{keyHash}/roll',
    group: 'developer',
    orgLimit: 'portal',
    access: 'write',
    idempotent: true,
    secrets: ['Meta.key'],
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: [...SESSION, 'key_request', 'deletion', 'idempotency', ...KEY_MAKING],
    summary: 'Roll a key: a new secret with the same rights, shown this once; the old one stops (at once here, within CACHE_SECONDS everywhere)',
    description: 'The new key and the old one are swapped in one transaction.',
    success: 'Meta.key is the new clear key, shown this once',
    statuses: { 404: "No such key of the developer's" },
    result: issuedKeySchema,
  }))();

export const portalRevokeKey = /* @__PURE__ */ (() =>
  route({
    method: 'DELETE',
    path: '/portal/{orgID}/keys/{keyHash}',
    group: 'developer',
    orgLimit: 'portal',
    access: 'write',
    tableActions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: [...SESSION, 'key_request', 'key', 'org', 'deletion'],
    summary: "Revoke one of the developer's keys: it is deleted and its request ends revoked",
    description: 'The key is refused at once here and everywhere within CACHE_SECONDS.',
    success: 'Revoked; Meta is the request',
    statuses: { 404: "No such key of the developer's" },
    result: keyRequestResultSchema,
  }))();

export const portalKeyUsage = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/portal/{orgID}/keys/{keyHash}/usage',
    group: 'developer',
    orgLimit: 'portal',
    access: 'read',
    tableActions: ['GetItem', 'Query'],
    tableEntities: [...SESSION, 'key', 'key_activity'],
    summary: "One of the developer's keys' requests, successes, errors and latency per day over the last days (30 unless told, at most 90)",
    description: 'From the hourly counters the gateway reports, as the dashboard reads them.',
    success: 'One row per day',
    statuses: { 404: "No such key of the developer's" },
    query: developerUsageQuerySchema,
    result: usageSchema,
  }))();

export const portalRoutes = /* @__PURE__ */ (() =>
  routeGroup('portal', {
    portalSettingsGet,
    portalSettingsPut,
    portalCatalogueList,
    portalCataloguePut,
    portalCatalogueDelete,
    portalDevelopersList,
    portalDevelopersUpdate,
    portalInvitationsCreate,
    portalKeyRequestsList,
    portalKeyRequestsApprove,
    portalKeyRequestsRefuse,
    portalCatalogue,
    portalDocument,
    portalSignUp,
    portalSignIn,
    portalSignOut,
    portalMe,
    portalMyRequests,
    portalRequestKey,
    portalCollectKey,
    portalMyKeys,
    portalRollKey,
    portalRevokeKey,
    portalKeyUsage,
  }))() satisfies Record<string, RouteDef>;
