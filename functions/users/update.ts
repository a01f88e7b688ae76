import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { usersUpdate } from '../../shared/route-groups/users';
import { replaceUser } from '../../shared/services/users';

/** PUT /admin/users/{userID}: replace a user's editable fields. */
export const handler = createHandler(usersUpdate, async ({ params, body, ifMatch }) => {
  const { user, version } = await replaceUser(params.userID, body, ifMatch);
  return reply.status('User updated', user, { id: user.id, etag: version });
});
