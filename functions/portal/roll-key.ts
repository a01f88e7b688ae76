import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalRollKey } from '../../shared/route-groups/portal';
import { rollMyKey } from '../../shared/services/key-requests';

/** POST /portal/{orgID}/keys/{keyHash}/roll: a new secret, same rights; the old one stops. */
export const handler = createHandler(portalRollKey, async ({ developer, params }) => reply.status('Key rolled', await rollMyKey(developer, params.keyHash)));
