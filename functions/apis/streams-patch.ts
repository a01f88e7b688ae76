import { createHandler } from '../../shared/http/create-handler';
import { checkContentType, parseJson } from '../../shared/http/body';
import { statusOk } from '../../shared/http/envelopes';
import { NotFound } from '../../shared/http/errors';
import { validateParts } from '../../shared/http/validate';
import { patchedStreamsRecord } from '../../shared/domain/imported-api';
import { importOptionsOf } from '../../shared/schemas/import';
import { streamsBodySchema } from '../../shared/schemas/streams';
import { importsRoutes as routes } from '../../shared/route-groups/imports';
import { getApiByAnyId, replaceApi } from '../../shared/store/apis';

/**
 * PATCH /api/apis/streams/{apiId} (spec 7): Content-Type exactly application/vnd.gw.streams.oas
 * (415); x-gw-api-gateway and x-gw-streaming.streams required (400); unknown API 404.
 */
export const handler = createHandler(routes.streamsPatch, async ({ org, params, query, rawBody, headers, ifMatch }) => {
  checkContentType(routes.streamsPatch, headers['content-type']);
  const { body } = validateParts({ body: streamsBodySchema }, { params: {}, query: {}, body: parseJson(rawBody) });
  const existing = await getApiByAnyId(params.apiId);
  if (!existing || existing.org_id !== org) throw new NotFound(`API ${params.apiId} not found`);
  await replaceApi(patchedStreamsRecord(body as Record<string, unknown>, importOptionsOf(query), existing, new Date().toISOString()), ifMatch);
  return statusOk('API updated', null);
});
