/**
 * The OpenAPI import (dashboard): a document, JSON, YAML or fetched from a URL, optionally merged
 * with a template, becomes an API written through the API service, so versions, listen claims
 * and references follow the same rules as any other write.
 */
import { upstreamCheck } from './upstream-allow-list';
import { Unprocessable } from '../errors';
import { importedRecord } from '../domain/imported-api';
import { withListenPathHint } from '../domain/listen-paths';
import { validateOpenApi } from '../domain/oas-parse';
import { mergeTemplate } from '../domain/template-merge';
import { importOptionsOf, type ImportQuery } from '../schemas/import';
import { importDocumentOf } from '../net/import-source';
import { loadAsset } from '../store/assets';
import { createApiWithVersion } from './apis';
import { assertHandlersNameHooks } from './hooks';
import { requireOrgReferences } from './definition-references';

/**
 * POST /api/apis/oas/import: JSON or YAML (415 otherwise) or {"url"}; 400 with the validator's
 * messages; 422 unknown templateID, unknown base, missing new_version_name, or a policy,
 * version API or webhook the definition names that is not the caller's; 409 listen path taken
 * (the default one is `/<slug of the title>/`, contract §8), saying to pass `listenPath`.
 */
export async function importApi(orgId: string, rawBody: string | undefined, contentType: string | undefined, query: ImportQuery) {
  let doc = await importDocumentOf(rawBody, contentType);
  if (query.templateID) {
    const template = await loadAsset(orgId, query.templateID);
    if (!template) throw new Unprocessable(`template ${query.templateID} does not exist`, [{ path: 'query.templateID', message: 'unknown asset' }]);
    doc = mergeTemplate(template.data, doc);
  }
  await validateOpenApi(doc);
  const record = importedRecord(doc, importOptionsOf(query), orgId, new Date().toISOString(), await upstreamCheck());
  await requireOrgReferences(orgId, record, { versions: true });
  await assertHandlersNameHooks(orgId, record.classic);
  return createApiWithVersion(record, query).catch((e: unknown) => {
    throw withListenPathHint(e);
  });
}
