import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { apisList } from '../../shared/route-groups/apis';
import { listOrgApis } from '../../shared/services/api-reads';

/** GET /api/apis: the caller's organisation's APIs, paged, in one of six orders. */
export const handler = createHandler(apisList, async ({ org, query }) => reply.ok(await listOrgApis(org, query)));
