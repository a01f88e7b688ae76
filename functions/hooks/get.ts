import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { NotFound } from '../../shared/errors';
import { hooksRoutes as routes } from '../../shared/route-groups/hooks';
import { getHook } from '../../shared/store/hooks';

/** GET /api/hooks/{hookId}: the hook, its version as ETag; 404 unknown or another organisation's. */
export const handler = createHandler(routes.hooksGet, async ({ org, params }) => {
  const hook = await getHook(org, params.hookId);
  if (!hook) throw new NotFound(`webhook ${params.hookId} not found`);
  return ok(hook, { version: hook.version });
});
