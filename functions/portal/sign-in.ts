import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalSignIn } from '../../shared/route-groups/portal';
import { signIn } from '../../shared/services/developers';

/** POST /portal/{orgID}/sessions: a developer session for this portal. */
export const handler = createHandler(portalSignIn, async ({ params, body, sourceIp }) =>
  reply.status('Signed in', await signIn(params.orgID, body.email_address, body.password, sourceIp)),
);
