import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { analyticsRoutes as routes } from '../../shared/route-groups/analytics';
import { keyActivity } from '../../shared/services/analytics';

/** GET /api/activity/keys/{keyHash}/...: 400 bad dates or over 366 days; 404 unknown key or another organisation's. */
export const handler = createHandler(routes.keyActivity, async ({ org, params, query }) => ok(await keyActivity(org, params, query)));
