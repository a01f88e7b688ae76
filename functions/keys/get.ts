import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { keysGet } from '../../shared/route-groups/keys';
import { getKey } from '../../shared/services/keys';

/** GET /gw/keys/{keyRef}: the session a key's policies make, with its live quota. */
export const handler = createHandler(keysGet, async ({ params, query }) => {
  const { session, version } = await getKey(params.keyRef, query);
  return reply.ok(session, { etag: version });
});
