import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { organisationsOffboarding } from '../../shared/route-groups/organisations';
import { offboardingProgress } from '../../shared/services/offboarding';

/** GET /admin/organisations/{orgID}/offboarding: the run, and what it deleted so far. */
export const handler = createHandler(organisationsOffboarding, async ({ params }) => {
  const state = await offboardingProgress(params.orgID);
  return reply.status(state.state === 'done' ? 'Organisation offboarded' : 'Offboarding under way', state);
});
