import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { oauthDashboardList } from '../../shared/route-groups/oauth';
import { listOrgClients } from '../../shared/services/oauth-clients';

/** GET /api/apis/oauth/{apiID}: the OAuth clients of an API of the caller's organisation, without secrets. */
export const handler = createHandler(oauthDashboardList, async ({ org, params, query }) => reply.ok(await listOrgClients(org, params.apiID, query)));
