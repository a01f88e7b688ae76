import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalKeyRequestsApprove } from '../../shared/route-groups/portal';
import { approveRequest } from '../../shared/services/key-requests';

/** POST /api/portal/key-requests/{requestID}/approve: the developer may collect the key. */
export const handler = createHandler(portalKeyRequestsApprove, async ({ org, params, principal }) => {
  const r = await approveRequest(org, params.requestID, principal.group === 'dashboard' ? principal.userId : '');
  return reply.status('Key request approved', r, { id: r.id });
});
