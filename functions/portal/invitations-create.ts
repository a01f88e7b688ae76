import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalRoutes as routes } from '../../shared/route-groups/portal';
import { invite } from '../../shared/services/developers';

/** POST /api/portal/invitations: an invitation for one e-mail, shown this once. */
export const handler = createHandler(routes.portalInvitationsCreate, async ({ org, body }) =>
  reply.status('Invitation issued', await invite(org, body.email_address)),
);
