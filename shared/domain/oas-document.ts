import { BadRequest } from '../errors';
import type { GwApiGateway, OasDocument } from '../schemas/api-oas';

type Json = Record<string, any>;
export const GW_EXTENSION = 'x-gw-api-gateway';

/** A body is a full OpenAPI document when it has any document-level member; else it is the bare extension. */
function isFullDocument(body: Json): boolean {
  return 'openapi' in body || 'paths' in body || GW_EXTENSION in body;
}

/**
 * Body of OAS create/update (contract §7): a full document must carry x-gw-api-gateway (400
 * otherwise); a bare extension object becomes a minimal OpenAPI document around it.
 */
export function normaliseOasWriteBody(body: Json): OasDocument {
  if (isFullDocument(body)) {
    const gw = body[GW_EXTENSION];
    if (gw === null || typeof gw !== 'object' || Array.isArray(gw)) {
      throw new BadRequest(`The document must carry the ${GW_EXTENSION} extension`, [{ path: `body.${GW_EXTENSION}`, message: 'required' }]);
    }
    return structuredClone(body) as OasDocument;
  }
  const gw = structuredClone(body) as GwApiGateway;
  const name = gw.info?.name;
  return {
    openapi: '3.0.3',
    info: { title: typeof name === 'string' && name ? name : gw.info?.id || 'API', version: '1.0.0' },
    paths: {},
    [GW_EXTENSION]: gw,
  };
}

/** mode=public: the document without x-gw-api-gateway, and nothing else removed. */
export function publicView<T extends Json>(doc: T): Omit<T, typeof GW_EXTENSION> {
  const { [GW_EXTENSION]: _gw, ...rest } = doc;
  return rest;
}
