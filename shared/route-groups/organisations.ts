/** Organisations (admin). Part of the route table (shared/routes.ts). */
import { route } from '../route-builders';
import type { RouteDef } from '../route-def';
import { okIdSchema } from '../schemas/common';
import { organisationInputSchema } from '../schemas/organisations';

export const organisationsRoutes = {
  organisationsCreate: route({
    method: 'POST', path: '/admin/organisations', group: 'admin', entry: 'functions/organisations/create.ts',
    access: 'write', tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], idempotent: true, summary: 'Create an organisation; Meta is the new id; 409 when the id is taken',
    body: organisationInputSchema, result: okIdSchema,
  }),
} satisfies Record<string, RouteDef>;
