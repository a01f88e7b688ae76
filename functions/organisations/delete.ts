import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { organisationsDelete } from '../../shared/route-groups/organisations';
import { startOffboarding } from '../../shared/services/offboarding';

/** DELETE /admin/organisations/{orgID}: starts the organisation's offboarding (or answers the one under way). */
export const handler = createHandler(organisationsDelete, async ({ params }) => {
  const { started, progress } = await startOffboarding(params.orgID);
  return reply.status(started ? 'Offboarding started' : 'Offboarding under way', progress);
});
