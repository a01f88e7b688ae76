import { createHandler } from '../../shared/http/create-handler';
import { gatewayOk } from '../../shared/http/envelopes';
import { recordFromOas } from '../../shared/domain/api-records';
import { normaliseOasWriteBody } from '../../shared/domain/oas-document';
import { routes } from '../../shared/routes';
import { createApi } from '../../shared/store/apis';

/** POST /gw/apis/oas (spec 6): full document with x-gw-api-gateway, or the bare extension; 409 taken id. */
export const handler = createHandler(routes.oasCreate, async ({ body }) => {
  const api = await createApi(recordFromOas(normaliseOasWriteBody(body), new Date().toISOString()));
  return gatewayOk('added', api.api_id);
});
