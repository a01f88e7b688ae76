import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { usersCreate } from '../../shared/route-groups/users';
import { createUser } from '../../shared/services/users';

/** POST /admin/users: a dashboard user; its access key is shown here once. */
export const handler = createHandler(usersCreate, async ({ body }) => {
  const { user, accessKey } = await createUser(body);
  return reply.status(accessKey, { ...user, access_key: accessKey }, { id: user.id });
});
