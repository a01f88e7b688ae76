import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { NotFound, PreconditionFailed } from '../../shared/errors';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { getApiSummaryByAnyId } from '../../shared/store/apis';
import { effectiveSession } from '../../shared/store/gw-keys';
import { findOwnKey, showKey, updateKey } from '../../shared/store/key-lifecycle';

/**
 * PUT /api/apis/{apiID}/keys/{keyID} (spec 3): the API (id or api_id) and the key must be the
 * caller's organisation's, and the key must grant the API; otherwise 404. APIs and policies the
 * body names must be the organisation's too (422, as for unknown ones).
 */
export const handler = createHandler(routes.keysDashboardUpdate, async ({ params, query, body, org, ifMatch }) => {
  const api = await getApiSummaryByAnyId(params.apiID);
  if (!api || api.org_id !== org) throw new NotFound(`API ${params.apiID} not found`);
  const current = await findOwnKey(org, params.keyID, query);
  if (!(await effectiveSession(current.session)).access_rights?.[api.api_id]) throw new NotFound(`the key does not grant API ${params.apiID}`);
  if (ifMatch !== undefined && ifMatch !== current.version) throw new PreconditionFailed();
  const { item, effective } = await updateKey(current, body, !query.suppress_reset);
  const data = await showKey(item, effective);
  return ok({ api_model: {}, key_id: params.keyID, data, key_hash: item.session.key_hash }, { version: item.version });
});
