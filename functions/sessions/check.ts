import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { sessionsCheck } from '../../shared/route-groups/sessions';
import { checkOrRefuse } from '../../shared/services/session-check';

/** POST /gw/sessions/check (contract §10): a gateway asks whether a key may make a request, spending its quota. */
export const handler = createHandler(sessionsCheck, async ({ body }) => {
  const { body: result, headers } = await checkOrRefuse(body);
  return reply.ok(result, { headers });
});
