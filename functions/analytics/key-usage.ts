import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { keyUsage as route } from '../../shared/route-groups/analytics';
import { keyUsage } from '../../shared/services/analytics';

/** GET /api/usage/keys/{keyHash}/...: a key's usage per hour or day, zero-filled. */
export const handler = createHandler(route, async ({ org, params, query }) => reply.ok(await keyUsage(org, params, query.resolution)));
