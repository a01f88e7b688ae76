import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { sessionsExtAuthz } from '../../shared/route-groups/sessions';
import { authorizeForwarded } from '../../shared/services/ext-authz';

/** ANY /gw/ext-authz/{proxy+}: nginx auth_request / Envoy ext_authz ask about the request they forward. */
export const handler = createHandler(sessionsExtAuthz, async ({ headers, params, rawQuery, method }) =>
  reply.empty(await authorizeForwarded(headers, { path: `/${params.proxy}`, query: rawQuery, method })),
);
