/** Organisations (admin). Part of the route table (shared/routes.ts). */
import * as z from 'zod';
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import { idSchema, okEnvelope, okIdSchema, okNullSchema } from '../schemas/common';
import {
  domainGrantSchema,
  domainSchema,
  organisationInputSchema,
  organisationListQuerySchema,
  organisationListSchema,
  organisationReadSchema,
} from '../schemas/organisations';

/** An organisation and one of its domains, in the path. */
const domainParams = /* @__PURE__ */ (() => z.object({ orgID: idSchema, domain: domainSchema }))();
const DOMAINS_RULE =
  'A domain belongs to at most one organisation; an API may use as its custom domain only a domain granted to its organisation ' +
  "(422 otherwise, on every write), and requests to a granted domain are matched only against that organisation's APIs (contract §13).";
import { STORED_BODY_RULES } from '../schemas/storable';
import { offboardingResultSchema } from '../schemas/offboarding';
import { exportQuerySchema, importProgressResultSchema, importQuerySchema, importResultSchema, organisationFileSchema } from '../schemas/organisation-file';

/** What an organisation's file carries, for both routes that read or write one. */
const FILE_RULE =
  'The file (docs/operating/organisations.md "Move an organisation") carries the organisation, its granted domains, its session, APIs, ' +
  "policies, OAuth clients (with their secrets' hashes), keys (their hashes, sessions and basic-auth hashes: issued keys keep working), " +
  'webhooks (their signing secrets only with `secrets=true`), templates, users (with their password hashes, without access keys) and ' +
  'the developer portal: its settings, catalogue, developers (with their password hashes, without sessions) and key requests. ' +
  'It is canonical JSON: members sorted, each kind ordered by id, no version numbers, so exporting what an import wrote gives the same bytes.';

export const organisationsCreate = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/admin/organisations',
    group: 'admin',
    access: 'write',
    idempotent: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['idempotency', 'org', 'org_count'],
    summary: 'Create an organisation; Meta is the new id',
    description: `The id is the body's \`id\` when given, else 24 lowercase hex. ${STORED_BODY_RULES}`,
    success: 'Organisation created; Meta is its id',
    statuses: { 409: 'The id is taken' },
    body: organisationInputSchema,
    result: okIdSchema,
  }))();

export const organisationsList = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/admin/organisations',
    group: 'admin',
    access: 'read',
    tableActions: ['GetItem', 'Query'],
    // The organisations come from GSI1 (partition ORGS), which an index grant reaches without a
    // LeadingKeys condition; the count is the one item read by key.
    tableEntities: ['org_count'],
    summary: "The installation's organisations, in creation order; q searches their id and owner_name",
    description:
      'Paged (contract §5). `q` keeps the organisations whose id or owner_name contains it, ignoring case; no count follows a ' +
      'search term, so pages is then the pages seen (this page and those before it, plus one while next_cursor is answered).',
    success: 'A page of organisations',
    query: organisationListQuerySchema,
    result: organisationListSchema,
  }))();

export const organisationsGet = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/admin/organisations/{orgID}',
    group: 'admin',
    access: 'read',
    tableActions: ['GetItem'],
    tableEntities: ['org'],
    summary: 'One organisation as stored, with its version as ETag',
    description: 'The organisation body as created, with id, created_at, updated_at and version.',
    success: 'The organisation',
    successHeaders: ['ETag'],
    statuses: { 404: 'The organisation does not exist' },
    result: organisationReadSchema,
  }))();

export const organisationsUpdate = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/admin/organisations/{orgID}',
    group: 'admin',
    access: 'write',
    etag: true,
    tableActions: ['GetItem', 'PutItem'],
    tableEntities: ['org'],
    summary: 'Replace an organisation: its members, whether it is active, and its own limits',
    description:
      'Replaces the whole body: omitted members are emptied; id, created_at and the granted domains (their own routes) stay. ' +
      '`active: false` suspends the organisation, `true` (or leaving it out) restores it (contract §9); `limits` replaces the ' +
      "installation's figures for this organisation (docs/reference/limits.md). Both take effect within CACHE_SECONDS. " +
      `A body id other than the path's is 400. ${STORED_BODY_RULES}`,
    success: 'Organisation updated; Meta is its id',
    successHeaders: ['ETag'],
    statuses: { 404: 'The organisation does not exist', 409: 'The organisation is being offboarded' },
    body: organisationInputSchema,
    result: okIdSchema,
  }))();

export const organisationsDelete = /* @__PURE__ */ (() =>
  route({
    method: 'DELETE',
    path: '/admin/organisations/{orgID}',
    group: 'admin',
    access: 'write',
    tableActions: ['GetItem', 'UpdateItem', 'PutItem'],
    tableEntities: ['org', 'offboarding'],
    summary: 'Offboard an organisation: delete it with everything it owns, in the background',
    description:
      'Marks the organisation as offboarding and answers at once: from then on every write for it is 422, and within CACHE_SECONDS ' +
      'its keys are refused (OrgSuspended) and its users 403. Once every process knows, a background run deletes everything it ' +
      'owns (contract §9) and nothing of any other organisation; `GET .../offboarding` follows it. Asked again while it runs, ' +
      'the answer is the run as it stands (Message "Offboarding under way"), and its worker is woken.',
    success: 'Message "Offboarding started" or "Offboarding under way"; Meta is the run',
    statuses: { 404: 'The organisation does not exist' },
    result: offboardingResultSchema,
  }))();

export const organisationsOffboarding = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/admin/organisations/{orgID}/offboarding',
    group: 'admin',
    access: 'read',
    tableActions: ['GetItem'],
    tableEntities: ['offboarding'],
    summary: "An organisation's offboarding: its state, its step, and what it deleted so far by kind",
    description:
      'Kept after the organisation is gone, for AUDIT_RETENTION_DAYS: the record of who was deleted, when and how much ' +
      "(the organisation's own audit entries are deleted with it).",
    success: 'The run',
    statuses: { 404: 'No offboarding of this organisation was started' },
    result: offboardingResultSchema,
  }))();

export const organisationsExport = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/admin/organisations/{orgID}/export',
    group: 'admin',
    access: 'read',
    tableActions: ['GetItem', 'BatchGetItem', 'Query'],
    tableEntities: ['api', 'asset', 'catalogue_entry', 'developer', 'hook', 'key', 'key_request', 'oauth_client', 'org', 'policy', 'portal_settings', 'user'],
    serviceKey: true,
    summary: 'An organisation as one file, for a backup or a move to another installation',
    description: `${FILE_RULE} Counters, usage figures, analytics, the audit trail and deliveries are not carried.`,
    success: 'The file itself (no envelope)',
    statuses: { 404: 'The organisation does not exist', 409: 'The organisation is being offboarded' },
    query: exportQuerySchema,
    result: organisationFileSchema,
  }))();

export const organisationsImport = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/admin/organisations/import',
    group: 'admin',
    access: 'write',
    tableActions: ['GetItem', 'BatchGetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: [
      'api',
      'api_db_id',
      'api_part',
      'asset',
      'asset_custom_id',
      'catalogue_entry',
      'developer',
      'developer_email',
      'domain_grant',
      'hook',
      'host_claims',
      'import_part',
      'import_run',
      'key',
      'key_request',
      'key_username',
      'listen_path',
      'oauth_client',
      'offboarding',
      'org',
      'org_count',
      'policy',
      'portal_settings',
      'routed_claim',
      'routing_version',
      'shared_path',
      'shared_path_head',
      'user',
      'user_email',
    ],
    serviceKey: true,
    summary: "Import an organisation's file from an export: ids kept, counters restarted",
    description:
      `${FILE_RULE} Before anything is written, every id the file would take that is unique across the installation (the ` +
      'organisation, its domains, API ids and database ids, policies, key hashes, OAuth clients, users, developers, key requests) ' +
      'and every listen path its APIs claim (contract §13) is checked: one taken is 409 naming them all, and nothing is stored. ' +
      'Live quotas start a fresh window; webhooks carried ' +
      'without a secret get a new one (rotate it to read it); users get no access key (POST /admin/users/{userID}/access-key issues one). ' +
      'An organisation offboarded before may be imported again: its finished run record is removed. What the request has no time to write ' +
      '(about 20 s: a large organisation on a slow table), or everything with `background=true`, is written in the background: ' +
      'Meta.state is `importing`, and `GET /admin/organisations/{orgID}/import` follows it to `done`, or `failed` (a write refused; ' +
      'the organisation is then offboarded).',
    success: 'Imported (Meta.state done), or under way in the background (Meta.state importing); Meta names the organisation and counts the file by kind',
    statuses: {
      400: 'The file contradicts itself: an object of another organisation, an id twice, a client of an API it does not carry',
      409:
        'An id or listen path is taken (nothing written), the organisation is being offboarded or imported, or a write failed midway ' +
        '(the import is undone)',
      422: 'An API names a custom domain the file does not grant, or the file holds more webhooks than the organisation may',
    },
    query: importQuerySchema,
    body: organisationFileSchema,
    result: importResultSchema,
  }))();

export const organisationsImportProgress = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/admin/organisations/{orgID}/import',
    group: 'admin',
    access: 'read',
    tableActions: ['GetItem'],
    tableEntities: ['import_run'],
    summary: "An organisation's last import: its state and how many objects are written",
    description:
      'Every import claims a run before it writes; an import whose request runs out of time (or is cut off) hands the rest to the ' +
      'background, which goes on from the same run. This reads it (kept 7 days after it ends). `failed` says why; the organisation ' +
      'is then offboarded (GET .../offboarding) when anything of it was written.',
    success: 'The run',
    statuses: { 404: 'The organisation was never imported here' },
    result: importProgressResultSchema,
  }))();

export const organisationsDomainsList = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/admin/organisations/{orgID}/domains',
    group: 'admin',
    access: 'read',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['org'],
    summary: 'The domains granted to an organisation, by name',
    description: DOMAINS_RULE,
    success: 'Meta.domains: each domain and when it was granted',
    statuses: { 404: 'The organisation does not exist' },
    result: okEnvelope(z.object({ domains: z.array(domainGrantSchema) })),
  }))();

export const organisationsDomainsGrant = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/admin/organisations/{orgID}/domains/{domain}',
    group: 'admin',
    access: 'write',
    tableActions: ['PutItem', 'ConditionCheckItem', 'UpdateItem'],
    tableEntities: ['domain_grant', 'org', 'routing_version'],
    summary: 'Grant a domain to an organisation',
    description: `${DOMAINS_RULE} Granting a domain the organisation already holds changes nothing.`,
    success: 'Granted (Message "Domain granted"), or already the organisation\'s ("Domain already granted")',
    statuses: { 409: 'The domain is granted to another organisation', 422: 'The organisation does not exist' },
    params: domainParams,
    result: okNullSchema,
  }))();

export const organisationsDomainsRevoke = /* @__PURE__ */ (() =>
  route({
    method: 'DELETE',
    path: '/admin/organisations/{orgID}/domains/{domain}',
    group: 'admin',
    access: 'write',
    tableActions: ['DeleteItem', 'PutItem', 'UpdateItem'],
    tableEntities: ['deletion', 'domain_grant', 'routing_version'],
    summary: 'Revoke a domain from an organisation',
    description:
      "The organisation's APIs that name it keep their definitions, but requests to the domain no longer reach them, and their " +
      'next write is 422 until the domain is granted again or they leave it.',
    success: 'Revoked',
    statuses: { 404: 'The domain is not granted to this organisation' },
    params: domainParams,
    result: okNullSchema,
  }))();

export const organisationsRoutes = /* @__PURE__ */ (() =>
  routeGroup('organisations', {
    organisationsCreate,
    organisationsList,
    organisationsGet,
    organisationsUpdate,
    organisationsDelete,
    organisationsOffboarding,
    organisationsExport,
    organisationsImport,
    organisationsImportProgress,
    organisationsDomainsList,
    organisationsDomainsGrant,
    organisationsDomainsRevoke,
  }))() satisfies Record<string, RouteDef>;
