import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { keyActivity as route } from '../../shared/route-groups/analytics';
import { keyActivity } from '../../shared/services/analytics';

/** GET /api/activity/keys/{keyHash}/...: a key's activity per (API, path) over whole days. */
export const handler = createHandler(route, async ({ org, params, query }) => reply.ok(await keyActivity(org, params, query)));
