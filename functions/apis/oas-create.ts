import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { oasCreate } from '../../shared/route-groups/apis';
import { createOasApi } from '../../shared/services/apis';

/** POST /gw/apis/oas: create an OAS API from a whole document or the bare extension, with base_api_id as a version of that base. */
export const handler = createHandler(oasCreate, async ({ body, query }) => reply.gateway('added', (await createOasApi(body, query)).api_id));
