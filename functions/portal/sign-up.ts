import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalSignUp } from '../../shared/route-groups/portal';
import { signUp } from '../../shared/services/developers';

/** POST /portal/{orgID}/developers: sign up to the portal (the same answer for a taken e-mail). */
export const handler = createHandler(portalSignUp, async ({ params, body }) => reply.status('Sign-up received', await signUp(params.orgID, body)));
