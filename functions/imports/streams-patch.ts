import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { streamsPatch } from '../../shared/route-groups/imports';
import { patchStreamsApi } from '../../shared/services/streams';

/** PATCH /api/apis/streams/{apiID}: replace an API of the caller's organisation from a streams document. */
export const handler = createHandler(streamsPatch, async ({ org, params, query, body, ifMatch }) => {
  await patchStreamsApi(org, params.apiID, body as Record<string, unknown>, query, ifMatch);
  return reply.status('API updated', null);
});
