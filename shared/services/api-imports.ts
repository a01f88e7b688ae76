/**
 * Definitions that arrive as documents (the dashboard's routes): an OpenAPI import, JSON, YAML
 * or fetched from a URL, optionally merged with a template; and the streams patch. Both write
 * through the API service, so versions, listen claims and references follow the same rules.
 */
import { config } from '../config';
import { NotFound, Unprocessable } from '../errors';
import { importedRecord, patchedStreamsRecord } from '../domain/imported-api';
import { validateOpenApi } from '../domain/oas-parse';
import { mergeTemplate } from '../domain/template-merge';
import { importOptionsOf, type ImportFlagsQuery, type ImportQuery } from '../schemas/import';
import { importDocumentOf } from '../net/import-source';
import { getApi, getApiSummaryByAnyId, replaceApi } from '../store/apis';
import { getAsset } from '../store/assets';
import { createApiWithVersion, requireOwnReferences } from './apis';

/**
 * POST /api/apis/oas/import: JSON or YAML (415 otherwise) or {"url"}; 400 with the validator's
 * messages; 422 unknown templateID, unknown base, missing new_version_name, or a policy or
 * version API the definition names that is not the caller's; 409 listen path taken.
 */
export async function importApi(orgId: string, rawBody: string | undefined, contentType: string | undefined, query: ImportQuery) {
  let doc = await importDocumentOf(rawBody, contentType);
  if (query.templateID) {
    const template = await getAsset(orgId, query.templateID);
    if (!template) throw new Unprocessable(`template ${query.templateID} does not exist`, [{ path: 'query.templateID', message: 'unknown asset' }]);
    doc = mergeTemplate(template.asset.data, doc);
  }
  await validateOpenApi(doc);
  const record = importedRecord(doc, importOptionsOf(query), orgId, new Date().toISOString(), config().upstreamAllowedHosts);
  await requireOwnReferences(orgId, record, { versions: true });
  return createApiWithVersion(record, query);
}

/**
 * PATCH /api/apis/streams/{apiID}: an unknown API, or another organisation's, is 404 from its
 * summary before any part of its definition is read; 422 a policy the definition names that is
 * not the caller's; 409 listen path taken.
 */
export async function patchStreamsApi(orgId: string, apiId: string, body: Record<string, unknown>, query: ImportFlagsQuery, ifMatch: number | undefined) {
  const summary = await getApiSummaryByAnyId(apiId);
  if (!summary || summary.org_id !== orgId) throw new NotFound(`API ${apiId} not found`);
  const existing = await getApi(summary.api_id);
  if (!existing || existing.org_id !== orgId) throw new NotFound(`API ${apiId} not found`);
  const record = patchedStreamsRecord(body, importOptionsOf(query), existing, new Date().toISOString(), config().upstreamAllowedHosts);
  await requireOwnReferences(orgId, record, { versions: false });
  await replaceApi(record, ifMatch);
}
