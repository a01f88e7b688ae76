import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { oauthRoutes as routes } from '../../shared/route-groups/oauth';
import { createClient } from '../../shared/services/oauth-clients';

/** POST /gw/oauth/clients/create: the client with its secret, shown this once; 422 unknown API or policy, 400 policy lacks the API, 409 taken client_id. */
export const handler = createHandler(routes.oauthCreate, async ({ body }) => ok(await createClient(body), { version: 1 }));
