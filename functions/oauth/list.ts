import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { oauthList } from '../../shared/route-groups/oauth';
import { listClients } from '../../shared/services/oauth-clients';

/** GET /gw/oauth/clients/{apiID}: the API's OAuth clients, without secrets. */
export const handler = createHandler(oauthList, async ({ params }) => reply.ok(await listClients(params.apiID)));
