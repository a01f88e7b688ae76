import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { apisGet } from '../../shared/route-groups/apis';
import { getOrgApiEntry } from '../../shared/services/api-reads';

/** GET /api/apis/{apiID}: an API of the caller's organisation (api_id or database id) as its listing entry. */
export const handler = createHandler(apisGet, async ({ org, params }) => {
  const { entry, version } = await getOrgApiEntry(org, params.apiID);
  return reply.ok(entry, { etag: version });
});
