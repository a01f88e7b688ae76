import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalMe } from '../../shared/route-groups/portal';
import { signedIn } from '../../shared/services/developers';

/** GET /portal/{orgID}/developer: the signed-in developer. */
export const handler = createHandler(portalMe, async ({ developer }) => reply.ok(await signedIn(developer)));
