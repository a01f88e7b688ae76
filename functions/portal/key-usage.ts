import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalKeyUsage } from '../../shared/route-groups/portal';
import { myKeyUsage } from '../../shared/services/key-requests';

/** GET /portal/{orgID}/keys/{keyHash}/usage: the key's figures per day. */
export const handler = createHandler(portalKeyUsage, async ({ developer, params, query }) => reply.ok(await myKeyUsage(developer, params.keyHash, query.days)));
