import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { organisationsList } from '../../shared/route-groups/organisations';
import { listOrganisations } from '../../shared/services/organisations';

/** GET /admin/organisations: the installation's organisations, paged; q searches id and owner_name. */
export const handler = createHandler(organisationsList, async ({ query }) => reply.ok(await listOrganisations(query)));
