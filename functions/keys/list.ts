import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { keysList } from '../../shared/route-groups/keys';
import { listOrgKeys } from '../../shared/services/keys';

/** GET /api/keys: the caller's organisation's keys by hash, newest first, paged. */
export const handler = createHandler(keysList, async ({ org, query }) => reply.ok(await listOrgKeys(org, query)));
