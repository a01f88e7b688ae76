import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { apisCreate } from '../../shared/route-groups/apis';
import { createClassicApi } from '../../shared/services/apis';

/** POST /api/apis: a classic API of the caller's organisation. */
export const handler = createHandler(apisCreate, async ({ org, body }) => {
  const api = await createClassicApi(body.api_definition, { org });
  return reply.status('API created', api.id, { id: api.api_id });
});
