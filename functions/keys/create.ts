import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { keysCreate } from '../../shared/route-groups/keys';
import { createGatewayKey } from '../../shared/services/keys';

/** POST /gw/keys/create: a key; the clear key is answered this once, only its hash is stored. */
export const handler = createHandler(keysCreate, async ({ body }) => {
  const { key, hash } = await createGatewayKey(body);
  return reply.gateway('added', key, { keyHash: hash });
});
