import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { hooksDelete } from '../../shared/route-groups/hooks';
import { deleteHook } from '../../shared/services/hooks';

/** DELETE /api/hooks/{hookID}: remove a webhook of the caller's organisation. */
export const handler = createHandler(hooksDelete, async ({ org, params, ifMatch }) => {
  await deleteHook(org, params.hookID, ifMatch);
  return reply.status('Webhook deleted', params.hookID);
});
