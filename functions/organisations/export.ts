import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { organisationsExport } from '../../shared/route-groups/organisations';
import { exportOrganisation } from '../../shared/services/organisation-transfer';

/** GET /admin/organisations/{orgID}/export: the organisation's file, as it is. */
export const handler = createHandler(organisationsExport, async ({ params, query }) =>
  reply.json(await exportOrganisation(params.orgID, query.secrets === 'true')),
);
