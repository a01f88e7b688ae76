import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { keysDelete } from '../../shared/route-groups/keys';
import { deleteKey } from '../../shared/services/keys';

/** DELETE /gw/keys/{keyRef}: a key, its live quotas and its user-name marker go together. */
export const handler = createHandler(keysDelete, async ({ params, query }) =>
  reply.gateway('deleted', params.keyRef, { keyHash: await deleteKey(params.keyRef, query) }),
);
