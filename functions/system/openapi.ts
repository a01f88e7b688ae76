import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { openApiText } from '../../shared/openapi/served';
import { systemRoutes as routes } from '../../shared/route-groups/system';

/** GET /openapi.json: the OpenAPI 3.1 document generated from the route table, as built with the function. */
export const handler = createHandler(routes.openapi, async () => reply.json(await openApiText()));
