import { createHandler } from '../../shared/http/create-handler';
import { statusOk } from '../../shared/http/envelopes';
import { importsRoutes as routes } from '../../shared/route-groups/imports';
import { importApi } from '../../shared/services/imports';

/**
 * POST /api/apis/oas/import: JSON or YAML (415 otherwise) or {"url"}; 400 with the validator's
 * messages; 422 unknown templateID, unknown base, missing new_version_name, or a policy or
 * version API the definition names that is not the caller's; 409 listen path taken.
 */
export const handler = createHandler(routes.oasImport, async ({ org, query, rawBody, headers }) => {
  const api = await importApi(org, rawBody, headers['content-type'], query);
  return statusOk('API created', api.id, api.api_id);
});
