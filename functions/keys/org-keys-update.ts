import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { orgKeysUpdate } from '../../shared/route-groups/keys';
import { setOrganisationSession } from '../../shared/services/keys';

/** PUT /gw/org/keys/{orgID}: the organisation-wide session; reset_quota=1 restarts its quota. */
export const handler = createHandler(orgKeysUpdate, async ({ params, query, body }) => {
  await setOrganisationSession(params.orgID, body, query.reset_quota === true);
  return reply.gateway('modified', params.orgID);
});
