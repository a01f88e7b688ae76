import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalRequestKey } from '../../shared/route-groups/portal';
import { requestKey } from '../../shared/services/key-requests';

/** POST /portal/{orgID}/key-requests: request a plan; an automatic plan's key is shown at once. */
export const handler = createHandler(portalRequestKey, async ({ developer, body }) => reply.status('Key requested', await requestKey(developer, body)));
