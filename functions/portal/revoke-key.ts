import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalRevokeKey } from '../../shared/route-groups/portal';
import { revokeMyKey } from '../../shared/services/key-requests';

/** DELETE /portal/{orgID}/keys/{keyHash}: the key is deleted, its request revoked. */
export const handler = createHandler(portalRevokeKey, async ({ developer, params }) => {
  const r = await revokeMyKey(developer, params.keyHash);
  return reply.status('Key revoked', r, { id: r.id });
});
