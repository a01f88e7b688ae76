import { createHandler } from '../../shared/http/create-handler';
import { etagOf, statusOk } from '../../shared/http/envelopes';
import { hooksRoutes as routes } from '../../shared/route-groups/hooks';
import { createHook } from '../../shared/services/hooks';

/** POST /api/hooks: Meta is the new hook id; 400 without a valid method or target_path. */
export const handler = createHandler(routes.hooksCreate, async ({ org, body }) => {
  const hook = await createHook(org, body);
  return { ...statusOk('Webhook created', hook.id), headers: etagOf(hook.version) };
});
