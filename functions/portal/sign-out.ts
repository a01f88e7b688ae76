import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalSignOut } from '../../shared/route-groups/portal';
import { signOut } from '../../shared/services/developers';

/** DELETE /portal/{orgID}/session: the session sent ends. */
export const handler = createHandler(portalSignOut, async ({ token }) => {
  await signOut(token);
  return reply.status('Signed out', null);
});
