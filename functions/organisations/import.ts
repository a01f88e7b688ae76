import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { organisationsImport } from '../../shared/route-groups/organisations';
import { importOrganisation } from '../../shared/services/organisation-transfer';

/** POST /admin/organisations/import: an organisation's file written into this installation (the rest in the background when time runs out). */
export const handler = createHandler(organisationsImport, async ({ body, query }) => {
  const imported = await importOrganisation(body, { background: query.background === 'true' });
  const message = imported.state === 'done' ? 'Organisation imported' : `Importing in the background: GET /admin/organisations/${imported.org_id}/import`;
  return reply.status(message, imported);
});
