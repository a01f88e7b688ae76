import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { hooksRoutes as routes } from '../../shared/route-groups/hooks';
import { getHook } from '../../shared/services/hooks';

/** GET /api/hooks/{hookID}: the hook, its version as ETag; 404 unknown or another organisation's. */
export const handler = createHandler(routes.hooksGet, async ({ org, params }) => {
  const hook = await getHook(org, params.hookID);
  return ok(hook, { version: hook.version });
});
