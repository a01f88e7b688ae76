import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { analyticsRoutes as routes } from '../../shared/route-groups/analytics';
import { apiUsage } from '../../shared/services/analytics';

/** GET /api/usage/apis/{apiID}/...: an API's usage per hour or day, zero-filled. */
export const handler = createHandler(routes.apiUsage, async ({ org, params, query }) => reply.ok(await apiUsage(org, params, query.resolution)));
