import { createHandler } from '../../shared/http/create-handler';
import { etagOf, statusOk } from '../../shared/http/envelopes';
import { usersRoutes as routes } from '../../shared/route-groups/users';
import { updateUser } from '../../shared/services/users';

/** PUT /admin/users/{userID}: replace a user's editable fields; 404 unknown, 409 e-mail taken, 412 stale If-Match. */
export const handler = createHandler(routes.usersUpdate, async ({ params, body, ifMatch }) => {
  const { user, version } = await updateUser(params.userID, body, ifMatch);
  return { ...statusOk('User updated', user, user.id), headers: etagOf(version) };
});
