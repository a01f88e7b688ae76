import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { oasDashboardCreate } from '../../shared/route-groups/apis';
import { createOasApi } from '../../shared/services/apis';

/** POST /api/apis/oas: an OAS API of the caller's organisation, with base_api_id as a version of that base. */
export const handler = createHandler(oasDashboardCreate, async ({ org, body, query }) => {
  const api = await createOasApi(body, query, { org });
  return reply.status('API created', api.id, { id: api.api_id });
});
