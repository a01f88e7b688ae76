import { createHandler } from '../../shared/http/create-handler';
import { etagOf, statusOk } from '../../shared/http/envelopes';
import { hooksRoutes as routes } from '../../shared/route-groups/hooks';
import { rotateSigningSecret } from '../../shared/services/hooks';

/** POST /api/hooks/{hookID}/signing-secret: a new signing secret, answered this once; 404 unknown. */
export const handler = createHandler(routes.hooksSigningSecret, async ({ org, params }) => {
  const { version, signingSecret } = await rotateSigningSecret(org, params.hookID);
  const reply = statusOk('Signing secret rotated', params.hookID);
  return { body: { ...(reply.body as object), signing_secret: signingSecret }, headers: etagOf(version) };
});
