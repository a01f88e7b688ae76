import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { portalCollectKey } from '../../shared/route-groups/portal';
import { collectKey } from '../../shared/services/key-requests';

/** POST /portal/{orgID}/key-requests/{requestID}/key: an approved request's key, shown this once. */
export const handler = createHandler(portalCollectKey, async ({ developer, params }) =>
  reply.status('Key issued', await collectKey(developer, params.requestID)),
);
