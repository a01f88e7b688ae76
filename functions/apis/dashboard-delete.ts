import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { apisDashboardDelete } from '../../shared/route-groups/apis';
import { deleteApi } from '../../shared/services/apis';

/** DELETE /api/apis/{apiID}: an API of the caller's organisation, as the gateway delete does. */
export const handler = createHandler(apisDashboardDelete, async ({ org, params, ifMatch }) => {
  await deleteApi(params.apiID, ifMatch, { org });
  return reply.status('API deleted', null);
});
