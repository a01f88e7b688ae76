import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { organisationsCreate } from '../../shared/route-groups/organisations';
import { createOrganisation } from '../../shared/services/organisations';

/** POST /admin/organisations: create an organisation. */
export const handler = createHandler(organisationsCreate, async ({ body }) => reply.status('Organisation created', (await createOrganisation(body)).id));
