import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { apisDelete } from '../../shared/route-groups/apis';
import { deleteApi } from '../../shared/services/apis';

/** DELETE /gw/apis/{apiID}: remove an API with its parts and OAuth clients; a version also leaves its base's list. */
export const handler = createHandler(apisDelete, async ({ params, ifMatch }) => {
  await deleteApi(params.apiID, ifMatch);
  return reply.gateway('deleted', params.apiID);
});
