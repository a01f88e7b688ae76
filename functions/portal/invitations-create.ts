import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalInvitationsCreate } from '../../shared/route-groups/portal';
import { invite } from '../../shared/services/developers';

/** POST /api/portal/invitations: an invitation for one e-mail, shown this once. */
export const handler = createHandler(portalInvitationsCreate, async ({ org, body }) =>
  reply.status('Invitation issued', await invite(org, body.email_address)),
);
