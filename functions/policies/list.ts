import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { policiesList } from '../../shared/route-groups/policies';
import { listOrgPolicies } from '../../shared/services/policies';

/** GET /api/portal/policies: the caller's organisation's policies, paged. */
export const handler = createHandler(policiesList, async ({ org, query }) => reply.ok(await listOrgPolicies(org, query)));
