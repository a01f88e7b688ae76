import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { oasDashboardGet } from '../../shared/route-groups/apis';
import { getOrgOasApi } from '../../shared/services/api-reads';

/** GET /api/apis/oas/{apiID}: an OAS API of the caller's organisation; mode=public drops only x-gw-api-gateway. */
export const handler = createHandler(oasDashboardGet, async ({ org, params, query }) => {
  const { document, version } = await getOrgOasApi(org, params.apiID, query.mode);
  return reply.ok(document, { etag: version });
});
