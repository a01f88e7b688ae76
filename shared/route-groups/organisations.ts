/** Organisations (admin). Part of the route table (shared/routes.ts). */
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import { okIdSchema } from '../schemas/common';
import { organisationInputSchema } from '../schemas/organisations';
import { STORED_BODY_RULES } from '../schemas/storable';

export const organisationsRoutes = routeGroup('organisations', {
  organisationsCreate: route({
    method: 'POST',
    path: '/admin/organisations',
    group: 'admin',
    access: 'write',
    idempotent: true,
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
    tableEntities: ['idempotency', 'org'],
    summary: 'Create an organisation; Meta is the new id',
    description: `The id is the body's \`id\` when given, else 24 lowercase hex. ${STORED_BODY_RULES}`,
    success: 'Organisation created; Meta is its id',
    statuses: { 409: 'The id is taken' },
    body: organisationInputSchema,
    result: okIdSchema,
  }),
}) satisfies Record<string, RouteDef>;
