import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { organisationsRoutes as routes } from '../../shared/route-groups/organisations';

/**
 * POST /admin/organisations/import: an organisation's file written into this installation (the
 * rest in the background when time runs out). The import's own code (the file's checks against
 * what is stored, every entity's writes) is loaded on the first request: a rare operator's call,
 * it kept the function's start the largest of the stack (BENCHMARKS.md "cold start").
 */
export const handler = createHandler(routes.organisationsImport, async ({ body, query }) => {
  const { importOrganisation } = await import('../../shared/services/organisation-transfer');
  const imported = await importOrganisation(body, { background: query.background === 'true' });
  const message = imported.state === 'done' ? 'Organisation imported' : `Importing in the background: GET /admin/organisations/${imported.org_id}/import`;
  return reply.status(message, imported);
});
