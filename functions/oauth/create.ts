import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { oauthCreate } from '../../shared/route-groups/oauth';
import { createClient } from '../../shared/services/oauth-clients';

/** POST /gw/oauth/clients/create: an OAuth client with its secret, shown this once. */
export const handler = createHandler(oauthCreate, async ({ body }) => reply.ok(await createClient(body), { etag: 1 }));
