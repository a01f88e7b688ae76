import { config } from '../../shared/config';
import { createHandler } from '../../shared/http/create-handler';
import { statusOk } from '../../shared/http/envelopes';
import { Unprocessable } from '../../shared/errors';
import { importedRecord } from '../../shared/domain/imported-api';
import { validateOpenApi } from '../../shared/domain/oas-parse';
import { mergeTemplate } from '../../shared/domain/template-merge';
import { importDocumentOf } from '../../shared/net/import-source';
import { importOptionsOf } from '../../shared/schemas/import';
import { importsRoutes as routes } from '../../shared/route-groups/imports';
import { createApiWithVersion } from '../../shared/store/api-versions';
import { requireOwnReferences } from '../../shared/store/api-references';
import { getAsset } from '../../shared/store/assets';

/**
 * POST /api/apis/oas/import (spec 16): JSON or YAML (415 otherwise) or {"url"}; 400 with the
 * validator's messages; 422 unknown templateID, unknown base, missing new_version_name, or a
 * policy or version API the definition names that is not the caller's; 409 listen path taken.
 */
export const handler = createHandler(routes.oasImport, async ({ org, query, rawBody, headers }) => {
  let doc = await importDocumentOf(rawBody, headers['content-type']);
  if (query.templateID) {
    const template = await getAsset(org, query.templateID);
    if (!template) throw new Unprocessable(`template ${query.templateID} does not exist`, [{ path: 'query.templateID', message: 'unknown asset' }]);
    doc = mergeTemplate(template.asset.data, doc);
  }
  await validateOpenApi(doc);
  const record = importedRecord(doc, importOptionsOf(query), org, new Date().toISOString(), config().upstreamAllowedHosts);
  await requireOwnReferences(org, record, { versions: true });
  const api = await createApiWithVersion(record, query);
  return statusOk('API created', api.id, api.api_id);
});
