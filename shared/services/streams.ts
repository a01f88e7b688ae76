/**
 * The streams patch (dashboard): a streams definition replaces the stream members of an API of
 * the caller's organisation. Apart from the import, so its function never loads the YAML parser,
 * the URL fetcher or the OpenAPI validator.
 */
import { config } from '../config';
import { NotFound } from '../errors';
import { patchedStreamsRecord } from '../domain/imported-api';
import { withListenPathHint } from '../domain/listen-paths';
import { importOptionsOf, type ImportFlagsQuery } from '../schemas/import';
import { getApi, getApiSummaryByAnyId, replaceApi } from '../store/apis';
import { assertHandlersNameHooks } from './hooks';
import { requireOwnReferences } from './references';
import type { IfMatch } from '../domain/if-match';

/**
 * PATCH /api/apis/streams/{apiID}: an unknown API, or another organisation's, is 404 from its
 * summary before any part of its definition is read; 422 a policy or webhook the definition
 * names that is not the caller's; 409 listen path taken, saying to pass `listenPath`.
 */
export async function patchStreamsApi(orgId: string, apiId: string, body: Record<string, unknown>, query: ImportFlagsQuery, ifMatch: IfMatch | undefined) {
  const summary = await getApiSummaryByAnyId(apiId);
  if (!summary || summary.org_id !== orgId) throw new NotFound(`API ${apiId} not found`);
  const existing = await getApi(summary.api_id);
  if (!existing || existing.org_id !== orgId) throw new NotFound(`API ${apiId} not found`);
  const record = patchedStreamsRecord(body, importOptionsOf(query), existing, new Date().toISOString(), config().upstreamAllowedHosts);
  await requireOwnReferences(orgId, record, { versions: false });
  await assertHandlersNameHooks(orgId, record.classic);
  await replaceApi(record, ifMatch).catch((e: unknown) => {
    throw withListenPathHint(e);
  });
}
