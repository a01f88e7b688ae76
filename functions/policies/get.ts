import { createHandler } from '../../shared/http/create-handler';
import { ok } from '../../shared/http/envelopes';
import { NotFound } from '../../shared/errors';
import { keysRoutes as routes } from '../../shared/route-groups/keys';
import { getPolicy } from '../../shared/store/policies';

export const handler = createHandler(routes.policiesGet, async ({ params }) => {
  const found = await getPolicy(params.policyID);
  if (!found) throw new NotFound(`policy ${params.policyID} not found`);
  const { version, ...policy } = found;
  return ok(policy, { version });
});
