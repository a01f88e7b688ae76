import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { nowSeconds } from '../../shared/domain/quota';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { putOrgSession } from '../../shared/store/org-sessions';

/** PUT /gw/org/keys/{orgID} (spec 14): the organisation-wide session; reset_quota=1 restarts its quota. */
export const handler = createHandler(routes.orgKeysUpdate, async ({ params, query, body }) => {
  await putOrgSession(params.orgID, body, query.reset_quota === true, nowSeconds());
  return gatewayOk('modified', params.orgID);
});
