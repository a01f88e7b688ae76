import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { setOrganisationSession } from '../../shared/services/keys';

/** PUT /gw/org/keys/{orgID}: the organisation-wide session; reset_quota=1 restarts its quota; 404 unknown organisation. */
export const handler = createHandler(routes.orgKeysUpdate, async ({ params, query, body }) => {
  await setOrganisationSession(params.orgID, body, query.reset_quota === true);
  return gatewayOk('modified', params.orgID);
});
