import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalKeyRequestsRefuse } from '../../shared/route-groups/portal';
import { refuseRequest } from '../../shared/services/key-requests';

/** POST /api/portal/key-requests/{requestID}/refuse: refused, with a reason the developer reads. */
export const handler = createHandler(portalKeyRequestsRefuse, async ({ org, params, body, principal }) => {
  const r = await refuseRequest(org, params.requestID, principal.group === 'dashboard' ? principal.userId : '', body.reason);
  return reply.status('Key request refused', r, { id: r.id });
});
