import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { classicCreate } from '../../shared/route-groups/apis';
import { createClassicApi } from '../../shared/services/apis';

/** POST /gw/apis: create a classic API. */
export const handler = createHandler(classicCreate, async ({ body }) => reply.gateway('added', (await createClassicApi(body)).api_id));
