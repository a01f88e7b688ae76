import { createHandler } from '../../shared/http/create-handler';
import { etagOf, statusOk } from '../../shared/http/envelopes';
import { hooksRoutes as routes } from '../../shared/route-groups/hooks';
import { replaceHook } from '../../shared/services/hooks';

/** PUT /api/hooks/{hookID}: full replace; 404 unknown or another organisation's, 412 stale If-Match. */
export const handler = createHandler(routes.hooksUpdate, async ({ org, params, body, ifMatch }) => {
  const hook = await replaceHook(org, params.hookID, body, ifMatch);
  return { ...statusOk('Webhook updated', hook.id), headers: etagOf(hook.version) };
});
