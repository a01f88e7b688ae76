import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { organisationsUpdate } from '../../shared/route-groups/organisations';
import { replaceOrganisation } from '../../shared/services/organisations';

/** PUT /admin/organisations/{orgID}: replace an organisation (suspend, restore, its own limits). */
export const handler = createHandler(organisationsUpdate, async ({ params, body, ifMatch }) => {
  const org = await replaceOrganisation(params.orgID, body, ifMatch);
  return reply.status('Organisation updated', org.id, { etag: org.version });
});
