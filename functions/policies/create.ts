import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { policiesCreate } from '../../shared/route-groups/policies';
import { createPolicy } from '../../shared/services/policies';

/** POST /gw/policies: a policy under the client's id. */
export const handler = createHandler(policiesCreate, async ({ body }) => reply.gateway('added', (await createPolicy(body)).id));
