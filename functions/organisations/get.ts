import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { organisationsGet } from '../../shared/route-groups/organisations';
import { getOrganisation } from '../../shared/services/organisations';

/** GET /admin/organisations/{orgID}: one organisation, its version as ETag. */
export const handler = createHandler(organisationsGet, async ({ params }) => {
  const { result, version } = await getOrganisation(params.orgID);
  return reply.ok(result, { etag: version });
});
