import { createHandler } from '../../shared/http/create-handler';
import { statusOk } from '../../shared/http/envelopes';
import { usersRoutes as routes } from '../../shared/route-groups/users';
import { createUser } from '../../shared/services/users';

/** POST /admin/users: the access key is shown here once; 422 unknown org, 409 e-mail taken. */
export const handler = createHandler(routes.usersCreate, async ({ body }) => {
  const { user, accessKey } = await createUser(body);
  return statusOk(accessKey, { ...user, access_key: accessKey }, user.id);
});
