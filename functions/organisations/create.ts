import { createHandler } from '../../shared/http/create-handler';
import { statusOk } from '../../shared/http/envelopes';
import { usersRoutes as routes } from '../../shared/route-groups/users';
import { createOrganisation } from '../../shared/store/organisations';

/** POST /admin/organisations (spec 19): Meta is the new id; 409 when the id is taken. */
export const handler = createHandler(routes.organisationsCreate, async ({ body }) => {
  const org = await createOrganisation(body);
  return statusOk('Organisation created', org.id);
});
