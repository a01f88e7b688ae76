/** The data-plane check. Part of the route table (shared/routes.ts). */
import { route } from '../route-builders';
import type { RouteDef } from '../route-def';
import { sessionCheckResultSchema, sessionCheckSchema } from '../schemas/keys';

export const sessionsRoutes = {
  sessionsCheck: route({
    method: 'POST', path: '/gw/sessions/check', group: 'gateway', entry: 'functions/sessions/check.ts', access: 'write',
    tableActions: ['GetItem', 'BatchGetItem', 'UpdateItem', 'PutItem'],
    summary: 'Data-plane check (contract §10): spends one unit of the key\'s and its organisation\'s quota; 403/429 with a reason',
    body: sessionCheckSchema, result: sessionCheckResultSchema,
  }),
} satisfies Record<string, RouteDef>;
