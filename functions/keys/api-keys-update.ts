import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { apiKeysUpdate } from '../../shared/route-groups/keys';
import { replaceOrgKeyOfApi } from '../../shared/services/keys';

/** PUT /api/apis/{apiID}/keys/{keyRef}: replace a key of the caller's organisation that grants the API. */
export const handler = createHandler(apiKeysUpdate, async ({ params, query, body, org, ifMatch }) => {
  const { result, version } = await replaceOrgKeyOfApi(org, params, query, body, ifMatch);
  return reply.ok(result, { etag: version });
});
