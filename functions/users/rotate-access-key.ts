import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { usersRotateAccessKey } from '../../shared/route-groups/users';
import { rotateUserAccessKey } from '../../shared/services/users';

/** POST /admin/users/{userID}/access-key: the old key stops working, the new one is shown here once. */
export const handler = createHandler(usersRotateAccessKey, async ({ params }) => {
  const { user, accessKey, version } = await rotateUserAccessKey(params.userID);
  return reply.status(accessKey, { ...user, access_key: accessKey }, { id: user.id, etag: version });
});
