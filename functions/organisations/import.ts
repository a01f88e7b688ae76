import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { organisationsRoutes as routes } from '../../shared/route-groups/organisations';
import { importOrganisation } from '../../shared/services/organisation-transfer';

/** POST /admin/organisations/import: an organisation's file written into this installation. */
export const handler = createHandler(routes.organisationsImport, async ({ body }) => reply.status('Organisation imported', await importOrganisation(body)));
