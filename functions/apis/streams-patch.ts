import { config } from '../../shared/config';
import { createHandler } from '../../shared/http/create-handler';
import { statusOk } from '../../shared/http/envelopes';
import { NotFound } from '../../shared/errors';
import { patchedStreamsRecord } from '../../shared/domain/imported-api';
import { importOptionsOf } from '../../shared/schemas/import';
import { importsRoutes as routes } from '../../shared/route-groups/imports';
import { requireOwnReferences } from '../../shared/store/api-references';
import { getApi, getApiSummaryByAnyId, replaceApi } from '../../shared/store/apis';

/**
 * PATCH /api/apis/streams/{apiId} (spec 7): the route's media type (415 otherwise) and body
 * schema (x-gw-api-gateway and x-gw-streaming.streams, 400 otherwise) are checked by the
 * middleware; unknown API, or another organisation's, 404 from its summary before any part of
 * its definition is read; 422 a policy the definition names that is not the caller's; 409
 * listen path taken.
 */
export const handler = createHandler(routes.streamsPatch, async ({ org, params, query, body, ifMatch }) => {
  const summary = await getApiSummaryByAnyId(params.apiId);
  if (!summary || summary.org_id !== org) throw new NotFound(`API ${params.apiId} not found`);
  const existing = await getApi(summary.api_id);
  if (!existing || existing.org_id !== org) throw new NotFound(`API ${params.apiId} not found`);
  const record = patchedStreamsRecord(body as Record<string, unknown>, importOptionsOf(query), existing, new Date().toISOString(), config().upstreamAllowedHosts);
  await requireOwnReferences(org, record, { versions: false });
  await replaceApi(record, ifMatch);
  return statusOk('API updated', null);
});
