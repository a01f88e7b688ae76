import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalCataloguePut } from '../../shared/route-groups/portal';
import { publishApi } from '../../shared/services/portal';

/** PUT /api/portal/catalogue/{apiID}: publish an API with its plans. */
export const handler = createHandler(portalCataloguePut, async ({ org, params, body }) => {
  const entry = await publishApi(org, params.apiID, body);
  return reply.status('API published', entry, { id: entry.api_id });
});
