import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { hooksSigningSecret } from '../../shared/route-groups/hooks';
import { rotateSigningSecret } from '../../shared/services/hooks';

/** POST /api/hooks/{hookID}/signing-secret: a new signing secret, answered this once. */
export const handler = createHandler(hooksSigningSecret, async ({ org, params }) => {
  const { version, signingSecret } = await rotateSigningSecret(org, params.hookID);
  return reply.status('Signing secret rotated', params.hookID, { extra: { signing_secret: signingSecret }, etag: version });
});
