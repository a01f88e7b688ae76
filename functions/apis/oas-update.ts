import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { NotFound } from '../../shared/errors';
import { assertSameId, recordFromOas } from '../../shared/domain/api-records';
import { normaliseOasWriteBody } from '../../shared/domain/oas-document';
import { apisRoutes as routes } from '../../shared/route-groups/apis';
import { getApi } from '../../shared/store/apis';
import { replaceApiWithVersion } from '../../shared/store/api-versions';
import { keepLinkedVersions } from '../../shared/domain/versioning';

/**
 * PUT /gw/apis/oas/{apiID} (spec 12): replaces; 400 when the body names another id; 404 unknown.
 * With base_api_id it links the API as a version of that base, in the same transaction.
 */
export const handler = createHandler(routes.oasUpdate, async ({ params, body, query, ifMatch }) => {
  const doc = normaliseOasWriteBody(body);
  const info = ((doc['x-gw-api-gateway'] as Record<string, any>).info ??= {});
  assertSameId(params.apiID, info.id, 'body.x-gw-api-gateway.info.id');
  const existing = await getApi(params.apiID);
  if (!existing) throw new NotFound(`API ${params.apiID} not found`);
  doc['x-gw-api-gateway'] = keepLinkedVersions(doc['x-gw-api-gateway'] as Record<string, unknown>, existing.oas?.['x-gw-api-gateway'] as Record<string, unknown> | undefined);
  await replaceApiWithVersion(recordFromOas(doc, new Date().toISOString(), existing), ifMatch, query);
  return gatewayOk('modified', params.apiID);
});
