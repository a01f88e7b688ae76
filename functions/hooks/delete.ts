import { createHandler } from '../../shared/http/create-handler';
import { statusOk } from '../../shared/http/envelopes';
import { hooksRoutes as routes } from '../../shared/route-groups/hooks';
import { deleteHook } from '../../shared/services/hooks';

/** DELETE /api/hooks/{hookID}: 404 unknown or another organisation's, 412 stale If-Match. */
export const handler = createHandler(routes.hooksDelete, async ({ org, params, ifMatch }) => {
  await deleteHook(org, params.hookID, ifMatch);
  return statusOk('Webhook deleted', params.hookID);
});
