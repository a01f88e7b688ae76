import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { hooksTest } from '../../shared/route-groups/hooks';
import { pingHook } from '../../shared/services/delivery-log';

/** POST /api/hooks/{hookID}/test: a Ping delivery to the webhook, attempted like any event. */
export const handler = createHandler(hooksTest, async ({ org, params }) => reply.status('Ping queued', await pingHook(org, params.hookID)));
