import { LIMITS } from '../limits';
import { mediaType } from '../parsing';
import type { RouteSpec } from '../route-def';
import { PayloadTooLarge, UnsupportedMediaType } from '../errors';

/** The request body as text, refusing anything over 5 MB before it is parsed. */
export function bodyText(body: string | undefined, isBase64: boolean | undefined): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (isBase64) {
    if ((body.length * 3) / 4 > LIMITS.bodyBytes + 4) throw new PayloadTooLarge();
    body = Buffer.from(body, 'base64').toString('utf8');
  }
  if (body.length > LIMITS.bodyBytes || Buffer.byteLength(body) > LIMITS.bodyBytes) throw new PayloadTooLarge();
  return body;
}

/** 415 unless the route takes this media type (a missing header counts as JSON). */
export function checkContentType(route: RouteSpec, header: string | undefined): void {
  const accepted = route.contentTypes ?? ['application/json'];
  const type = mediaType(header);
  if (type === '' && accepted.includes('application/json')) return;
  if (!accepted.includes(type)) {
    throw new UnsupportedMediaType(`Content-Type ${type || '(none)'} is not accepted here; use ${accepted.join(' or ')}`);
  }
}
