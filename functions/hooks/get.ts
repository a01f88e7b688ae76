import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { hooksGet } from '../../shared/route-groups/hooks';
import { getHook } from '../../shared/services/hooks';

/** GET /api/hooks/{hookID}: a webhook of the caller's organisation. */
export const handler = createHandler(hooksGet, async ({ org, params }) => {
  const hook = await getHook(org, params.hookID);
  return reply.ok(hook, { etag: hook.version });
});
