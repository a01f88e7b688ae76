import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { openApiDocument } from '../../shared/openapi/document';
import { systemRoutes as routes } from '../../shared/route-groups/system';

/** GET /openapi.json: the OpenAPI 3.1 document generated from the route table. */
export const handler = createHandler(routes.openapi, async () => reply.ok(openApiDocument()));
