import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { hooksCreate } from '../../shared/route-groups/hooks';
import { createHook } from '../../shared/services/hooks';

/** POST /api/hooks: create a webhook; the answer shows its signing secret this once. */
export const handler = createHandler(hooksCreate, async ({ org, body }) => {
  const { hook, signingSecret } = await createHook(org, body);
  return reply.status('Webhook created', hook.id, { extra: { signing_secret: signingSecret }, etag: hook.version });
});
