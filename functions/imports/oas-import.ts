import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { oasImport } from '../../shared/route-groups/imports';
import { importApi } from '../../shared/services/imports';

/** POST /api/apis/oas/import: an API from an OpenAPI document (JSON, YAML or {"url"}), optionally over a template. */
export const handler = createHandler(oasImport, async ({ org, query, rawBody, headers }) => {
  const api = await importApi(org, rawBody, headers['content-type'], query);
  return reply.status('API created', api.id, { id: api.api_id });
});
