import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalMyKeys } from '../../shared/route-groups/portal';
import { myKeys } from '../../shared/services/key-requests';

/** GET /portal/{orgID}/keys: the developer's keys with live quota. */
export const handler = createHandler(portalMyKeys, async ({ developer }) => reply.ok(await myKeys(developer)));
