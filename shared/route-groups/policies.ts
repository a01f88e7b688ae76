/** Policies. Part of the route table (shared/routes.ts). */
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import { gatewayWriteSchema, okIdPairSchema, okIdSchema, pageQuerySchema } from '../schemas/common';
import { policiesImportedSchema, policyDashboardSchema, policyImportSchema, policyPageSchema, policySchema } from '../schemas/policies';
import { STORED_BODY_RULES } from '../schemas/storable';

const storable = STORED_BODY_RULES;
const perApi = 'partitions.per_api cannot be combined with acl, complexity, quota or rate_limit.';
const own = "Only the caller's organisation's policies: another organisation's id is 404 like an unknown one.";
const ownBody =
  "An org_id in the body must be absent or the caller's (400); every API in access_rights must be the caller organisation's (422 as for one that does not " +
  'exist).';

export const policiesCreate = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/gw/policies',
    group: 'gateway',
    access: 'write',
    idempotent: true,
    tableActions: ['GetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['idempotency', 'org', 'policy'],
    summary: 'Create a policy under its id',
    description: `Policy ids are chosen by the client and unique across the installation. ${perApi} ${storable}`,
    success: 'Policy created; key is its id',
    statuses: { 409: 'The id is taken', 422: 'The org_id names no organisation (a blank or absent one is allowed)' },
    body: policySchema,
    result: gatewayWriteSchema,
  }))();

export const policiesGet = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/gw/policies/{policyID}',
    group: 'gateway',
    access: 'read',
    tableActions: ['GetItem'],
    tableEntities: ['policy'],
    summary: 'Get a policy',
    description: 'Any policy, by id.',
    success: 'The policy',
    successHeaders: ['ETag'],
    statuses: { 404: 'No such policy' },
    result: policySchema,
  }))();

export const policiesUpdate = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/gw/policies/{policyID}',
    group: 'gateway',
    access: 'write',
    etag: true,
    tableActions: ['GetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem'],
    tableEntities: ['org', 'policy'],
    summary: 'Replace a policy',
    description:
      `Full replacement; _id and date_created are kept. A body whose id is not the path's is 400 (a rule between path and body). ` + `${perApi} ${storable}`,
    success: 'Policy replaced; key is its id',
    statuses: { 400: 'The body names another id than the path', 404: 'No such policy', 422: 'The policy moves to an org_id that names no organisation' },
    body: policySchema,
    result: gatewayWriteSchema,
  }))();

export const policiesDelete = /* @__PURE__ */ (() =>
  route({
    method: 'DELETE',
    path: '/gw/policies/{policyID}',
    group: 'gateway',
    access: 'write',
    etag: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['deletion', 'org', 'policy'],
    summary: 'Delete a policy',
    description: 'Keys naming the policy simply stop receiving what it granted.',
    success: 'Policy deleted; key is its id',
    statuses: { 404: 'No such policy' },
    result: gatewayWriteSchema,
  }))();

export const policiesImport = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/admin/policies/import',
    group: 'admin',
    access: 'write',
    tableActions: ['BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem'],
    tableEntities: ['org', 'policy'],
    summary: 'Import policies: all validated before any is written; ids kept; Meta maps each id to true',
    description:
      `Every policy is validated before any is written; ids are kept (a blank id takes _id) and unique within the import. ${perApi} ` +
      `All-or-nothing per transaction of up to 100 policies and 4 MB. ${storable}`,
    success: 'Policies imported; Meta maps each id to true',
    statuses: { 422: 'An org_id names no organisation (nothing of that transaction is written)' },
    body: policyImportSchema,
    result: policiesImportedSchema,
  }))();

export const policiesList = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/portal/policies',
    group: 'dashboard',
    access: 'read',
    permission: 'policies',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['access_key', 'org'],
    summary: "List the caller's organisation's policies, oldest first: {Data, Pages, next_cursor?}",
    description:
      "Policies whose org_id is the caller's organisation, in the spec's policy wrapper names. Pages comes from the organisation's policy count; " +
      'for an organisation made before policies were counted it is the pages seen until an operator counts them (contract §5).',
    success: 'A page of policies',
    query: pageQuerySchema,
    result: policyPageSchema,
  }))();

export const policiesDashboardCreate = /* @__PURE__ */ (() =>
  route({
    method: 'POST',
    path: '/api/portal/policies',
    group: 'dashboard',
    access: 'write',
    permission: 'policies',
    idempotent: true,
    tableActions: ['GetItem', 'BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['access_key', 'api', 'idempotency', 'org', 'org_limit', 'policy'],
    summary: "Create a policy in the caller's organisation; id optional (24 hex generated)",
    description: `Policy ids are unique across the installation. ${ownBody} ${perApi} ${storable}`,
    success: 'Policy created; Meta and ID are its id',
    statuses: { 400: 'org_id names another organisation', 409: 'The id is taken', 422: "An API in access_rights is not the caller organisation's" },
    body: policyDashboardSchema,
    result: okIdPairSchema,
  }))();

export const policiesDashboardGet = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/portal/policies/{policyID}',
    group: 'dashboard',
    access: 'read',
    permission: 'policies',
    tableActions: ['GetItem'],
    tableEntities: ['access_key', 'policy'],
    summary: "Get a policy of the caller's organisation",
    description: own,
    success: 'The policy',
    successHeaders: ['ETag'],
    statuses: { 404: "No such policy in the caller's organisation" },
    result: policySchema,
  }))();

export const policiesDashboardUpdate = /* @__PURE__ */ (() =>
  route({
    method: 'PUT',
    path: '/api/portal/policies/{policyID}',
    group: 'dashboard',
    access: 'write',
    permission: 'policies',
    etag: true,
    tableActions: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem'],
    tableEntities: ['access_key', 'api', 'org', 'org_limit', 'policy'],
    summary: "Replace a policy of the caller's organisation",
    description: `${own} Full replacement; _id and date_created are kept; a body id that is not the path's is 400. ${ownBody} ${perApi} ${storable}`,
    success: 'Policy updated; Meta is its id',
    successHeaders: ['ETag'],
    statuses: {
      400: 'The body names another id than the path, or another organisation',
      404: "No such policy in the caller's organisation",
      422: "An API in access_rights is not the caller organisation's",
    },
    body: policyDashboardSchema,
    result: okIdSchema,
  }))();

export const policiesDashboardDelete = /* @__PURE__ */ (() =>
  route({
    method: 'DELETE',
    path: '/api/portal/policies/{policyID}',
    group: 'dashboard',
    access: 'write',
    permission: 'policies',
    etag: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['access_key', 'deletion', 'org', 'org_limit', 'policy'],
    summary: "Delete a policy of the caller's organisation",
    description: `${own} Keys naming the policy simply stop receiving what it granted.`,
    success: 'Policy deleted; Meta is its id',
    statuses: { 404: "No such policy in the caller's organisation" },
    result: okIdSchema,
  }))();

export const policiesRoutes = /* @__PURE__ */ (() =>
  routeGroup('policies', {
    policiesCreate,
    policiesGet,
    policiesUpdate,
    policiesDelete,
    policiesImport,
    policiesList,
    policiesDashboardCreate,
    policiesDashboardGet,
    policiesDashboardUpdate,
    policiesDashboardDelete,
  }))() satisfies Record<string, RouteDef>;
