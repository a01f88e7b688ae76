/**
 * The streams patch (dashboard): a streams definition replaces the stream members of an API of
 * the caller's organisation. Apart from the import, so its function never loads the YAML parser,
 * the URL fetcher or the OpenAPI validator.
 */
import { upstreamCheck } from './upstream-allow-list';
import { NotFound } from '../errors';
import type { IfMatch } from '../domain/if-match';
import { patchedStreamsRecord } from '../domain/imported-api';
import { withListenPathHint } from '../domain/listen-paths';
import { importOptionsOf, type ImportFlagsQuery } from '../schemas/import';
import { replaceApi } from './apis';
import { assertHandlersNameHooks } from './hooks';
import { orgApi } from './org-apis';
import { requireOrgReferences } from './definition-references';

/**
 * PATCH /api/apis/streams/{apiID}: an unknown API, or another organisation's, is 404 from its
 * summary before any part of its definition is read; 422 a policy or webhook the definition
 * names that is not the caller's; 409 listen path taken, saying to pass `listenPath`.
 */
export async function patchStreamsApi(orgId: string, apiId: string, body: Record<string, unknown>, query: ImportFlagsQuery, ifMatch: IfMatch | undefined) {
  const existing = await orgApi(orgId, apiId);
  if (!existing) throw new NotFound(`API ${apiId} not found`);
  const record = patchedStreamsRecord(body, importOptionsOf(query), existing, new Date().toISOString(), await upstreamCheck());
  await requireOrgReferences(orgId, record, { versions: false });
  await assertHandlersNameHooks(orgId, record.classic);
  await replaceApi(record.api_id, ifMatch, async () => ({ record })).catch((e: unknown) => {
    throw withListenPathHint(e);
  });
}
