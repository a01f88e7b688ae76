import { createHandler } from '../../shared/http/create-handler';
import { statusOk } from '../../shared/http/envelopes';
import { importsRoutes as routes } from '../../shared/route-groups/imports';
import { patchStreamsApi } from '../../shared/services/streams';

/**
 * PATCH /api/apis/streams/{apiID}: the route's media type (415 otherwise) and body schema
 * (x-gw-api-gateway and x-gw-streaming.streams, 400 otherwise) are checked by the middleware;
 * 404 unknown API or another organisation's; 422 a policy that is not the caller's; 409 listen
 * path taken.
 */
export const handler = createHandler(routes.streamsPatch, async ({ org, params, query, body, ifMatch }) => {
  await patchStreamsApi(org, params.apiID, body as Record<string, unknown>, query, ifMatch);
  return statusOk('API updated', null);
});
