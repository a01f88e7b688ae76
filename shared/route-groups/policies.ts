/** Policies. Part of the route table (shared/routes.ts). */
import { route } from '../route-builders';
import type { RouteDef } from '../route-def';
import { gatewayWriteSchema } from '../schemas/common';
import { policiesImportedSchema, policyImportSchema, policySchema } from '../schemas/policies';

export const policiesRoutes = {
  policiesCreate: route({
    method: 'POST', path: '/gw/policies', group: 'gateway', entry: 'functions/policies/create.ts', access: 'write', idempotent: true,
    tableActions: ['GetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    summary: 'Create a policy under its id; 409 when the id is taken, 422 an org_id naming no organisation', body: policySchema, result: gatewayWriteSchema,
  }),
  policiesGet: route({
    method: 'GET', path: '/gw/policies/{policyID}', group: 'gateway', entry: 'functions/policies/get.ts', access: 'read',
    tableActions: ['GetItem'],
    summary: 'Get a policy', result: policySchema,
  }),
  policiesUpdate: route({
    method: 'PUT', path: '/gw/policies/{policyID}', group: 'gateway', entry: 'functions/policies/update.ts', access: 'write', etag: true,
    tableActions: ['GetItem', 'ConditionCheckItem', 'PutItem'],
    summary: 'Replace a policy; 400 when the body names another id, 422 an org_id naming no organisation', body: policySchema, result: gatewayWriteSchema,
  }),
  policiesDelete: route({
    method: 'DELETE', path: '/gw/policies/{policyID}', group: 'gateway', entry: 'functions/policies/delete.ts', access: 'write', etag: true,
    tableActions: ['DeleteItem'],
    summary: 'Delete a policy', result: gatewayWriteSchema,
  }),
  policiesImport: route({
    method: 'POST', path: '/admin/policies/import', group: 'admin', entry: 'functions/policies/import.ts', access: 'write',
    tableActions: ['BatchGetItem', 'ConditionCheckItem', 'PutItem'],
    summary: 'Import policies: all validated before any is written; ids kept; Meta maps each id to true; 422 an org_id naming no organisation',
    body: policyImportSchema, result: policiesImportedSchema,
  }),
} satisfies Record<string, RouteDef>;
