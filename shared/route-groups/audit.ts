/** The audit trail (contract §12). Part of the route table (shared/routes.ts). */
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import { adminAuditListQuerySchema, auditListQuerySchema, auditListSchema } from '../schemas/audit';

const entries =
  'Each entry is one change of a configuration object (organisation, user, API definition, key by its key_hash, policy, ' +
  'organisation key, webhook, template, OAuth client): {id, at, org_id, actor, request_id, action: create|update|delete, object: {type, id}, changes}, ' +
  'changes being an RFC 6902 JSON Patch from the object before to the object after (a create from {}, a delete to {}), with every ' +
  'credential the table x-credential-members names as ******** (a changed one as a test and a replace of ********). On ' +
  "GET /api/audit-log a user entry's e-mail, names and permissions read ******** unless the caller may also read users. " +
  'Entries are written only by the change feed, ' +
  'seconds after the change, and expire after AUDIT_RETENTION_DAYS (default 365). Filters: object_type, object_id, actor (a user id or ' +
  'e-mail, gateway, admin or system), from and to (ISO 8601, inclusive). Entries expire and filters apply, so no count is kept: pages is the ' +
  'pages seen (this page and those before it, plus one while next_cursor is answered; exact on the last page).';
const range = { 400: 'A filter is not valid, or to is before from' };

export const auditList = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/api/audit-log',
    group: 'dashboard',
    access: 'read',
    permission: 'audit',
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['access_key'],
    summary: "The caller's organisation's audit trail, newest first, paged: who changed which configuration object, and how (a JSON Patch)",
    description: `The audit trail of the caller's organisation, newest first, paged (contract §5, §12). ${entries}`,
    success: 'A page of audit entries',
    statuses: range,
    query: auditListQuerySchema,
    result: auditListSchema,
  }))();

export const auditAdminList = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/admin/audit-log',
    group: 'admin',
    access: 'read',
    tableActions: ['Query'],
    tableEntities: [],
    summary: "Every organisation's audit trail (or one's, with org_id), newest first, paged",
    description: `The audit trail of every organisation (org_id: one organisation's), newest first, paged (contract §5, §12). ${entries}`,
    success: 'A page of audit entries',
    statuses: range,
    query: adminAuditListQuerySchema,
    result: auditListSchema,
  }))();

export const auditRoutes = /* @__PURE__ */ (() =>
  routeGroup('audit', {
    auditList,
    auditAdminList,
  }))() satisfies Record<string, RouteDef>;
