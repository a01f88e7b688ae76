import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { usersRoutes as routes } from '../../shared/route-groups/users';
import { rotateUserAccessKey } from '../../shared/services/users';

/** POST /admin/users/{userID}/access-key: the old key stops working, the new one is shown here once. */
export const handler = createHandler(routes.usersRotateAccessKey, async ({ params }) => {
  const { user, accessKey, version } = await rotateUserAccessKey(params.userID);
  return reply.status(accessKey, { ...user, access_key: accessKey }, { id: user.id, etag: version });
});
