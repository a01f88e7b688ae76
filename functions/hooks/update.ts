import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { hooksUpdate } from '../../shared/route-groups/hooks';
import { replaceHook } from '../../shared/services/hooks';

/** PUT /api/hooks/{hookID}: replace a webhook of the caller's organisation. */
export const handler = createHandler(hooksUpdate, async ({ org, params, body, ifMatch }) => {
  const hook = await replaceHook(org, params.hookID, body, ifMatch);
  return reply.status('Webhook updated', hook.id, { etag: hook.version });
});
