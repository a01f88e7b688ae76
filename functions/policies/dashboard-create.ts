import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { policiesDashboardCreate } from '../../shared/route-groups/policies';
import { createOrgPolicy } from '../../shared/services/policies';

/** POST /api/portal/policies: a policy of the caller's organisation (24-hex id when none is given). */
export const handler = createHandler(policiesDashboardCreate, async ({ org, body }) => {
  const { id } = await createOrgPolicy(org, body);
  return reply.status('Policy created', id, { id });
});
