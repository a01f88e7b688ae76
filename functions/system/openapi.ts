import { acceptedEncoding } from '../../shared/http/content-encoding';
import { createHandler } from '../../shared/http/create-handler';
import { reply } from '../../shared/http/envelopes';
import { ENCODINGS } from '../../shared/openapi/compressed';
import { openApiEncoded, openApiText } from '../../shared/openapi/served';
import { openapi as route } from '../../shared/route-groups/system';

const VARY = { Vary: 'Accept-Encoding' };

/** GET /openapi.json: the OpenAPI 3.1 document generated from the route table, as built with the function; compressed when accepted. */
export const handler = createHandler(route, async ({ headers }) => {
  const encoding = acceptedEncoding(headers, ENCODINGS);
  return encoding === 'identity' ? reply.json(await openApiText(), VARY) : reply.encodedJson(await openApiEncoded(encoding), encoding, VARY);
});
