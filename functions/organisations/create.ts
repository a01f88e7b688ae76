import { createHandler } from '../../shared/http/create-handler';
import { statusOk } from '../../shared/http/envelopes';
import { organisationsRoutes as routes } from '../../shared/route-groups/organisations';
import { createOrganisation } from '../../shared/services/organisations';

/** POST /admin/organisations: Meta is the new id; 409 when the id is taken. */
export const handler = createHandler(routes.organisationsCreate, async ({ body }) => statusOk('Organisation created', (await createOrganisation(body)).id));
