import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalCatalogueDelete } from '../../shared/route-groups/portal';
import { unpublishApi } from '../../shared/services/portal';

/** DELETE /api/portal/catalogue/{apiID}: take an API out of the portal. */
export const handler = createHandler(portalCatalogueDelete, async ({ org, params }) => {
  await unpublishApi(org, params.apiID);
  return reply.status('API unpublished', null);
});
