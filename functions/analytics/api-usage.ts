import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { apiUsage as route } from '../../shared/route-groups/analytics';
import { apiUsage } from '../../shared/services/analytics';

/** GET /api/usage/apis/{apiID}/...: an API's usage per hour or day, zero-filled. */
export const handler = createHandler(route, async ({ org, params, query }) => reply.ok(await apiUsage(org, params, query.resolution)));
