import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { oauthDashboardCreate } from '../../shared/route-groups/oauth';
import { createOrgClient } from '../../shared/services/oauth-clients';

/** POST /api/apis/oauth/{apiID}: an OAuth client of an API of the caller's organisation, with its secret shown this once. */
export const handler = createHandler(oauthDashboardCreate, async ({ org, params, body }) => reply.ok(await createOrgClient(org, params.apiID, body)));
