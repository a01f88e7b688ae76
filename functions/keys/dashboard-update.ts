import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { updateKeyFromDashboard } from '../../shared/services/keys';

/**
 * PUT /api/apis/{apiID}/keys/{keyID}: the API (id or api_id) and the key must be the caller's
 * organisation's, and the key must grant the API; otherwise 404. APIs and policies the body
 * names must be the organisation's too (422, as for unknown ones).
 */
export const handler = createHandler(routes.keysDashboardUpdate, async ({ params, query, body, org, ifMatch }) => {
  const { result, version } = await updateKeyFromDashboard(org, params, query, body, ifMatch);
  return ok(result, { version });
});
