import { createHandler } from '../../shared/http/create-handler';
import { etagOf, statusOk } from '../../shared/http/envelopes';
import { hooksRoutes as routes } from '../../shared/route-groups/hooks';
import { createHook } from '../../shared/services/hooks';

/** POST /api/hooks: Meta is the new hook id, signing_secret its signing secret (shown this once); 400 without a valid method or target_path. */
export const handler = createHandler(routes.hooksCreate, async ({ org, body }) => {
  const { hook, signingSecret } = await createHook(org, body);
  const reply = statusOk('Webhook created', hook.id);
  return { body: { ...(reply.body as object), signing_secret: signingSecret }, headers: etagOf(hook.version) };
});
