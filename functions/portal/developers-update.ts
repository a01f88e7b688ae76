import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalDevelopersUpdate } from '../../shared/route-groups/portal';
import { setDeveloper } from '../../shared/services/developers';

/** PUT /api/portal/developers/{developerID}: approve or disable a developer. */
export const handler = createHandler(portalDevelopersUpdate, async ({ org, params, body }) => {
  const developer = await setDeveloper(org, params.developerID, body.state);
  return reply.status('Developer updated', developer, { id: developer.id });
});
