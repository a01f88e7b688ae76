/**
 * Middleware: the body read (5 MB at most, 413), its media type checked (415) and parsed as JSON
 * (400), then path parameters, query and body validated together against the route's schemas, so
 * one 400 lists every problem. Routes with a raw body get the text and parse it themselves.
 * Every route refuses a body over 5 MB, one that takes none too, so the cloud's functions answer
 * 413 exactly where the local server's guard does (contract §3).
 */
import { parseJson } from '../../parsing';
import type { RouteSpec } from '../../route-def';
import { bodyText, checkContentType } from '../body';
import { validateParts } from '../validate';
import type { HttpMiddleware } from './state';

export const parseAndValidate = (route: RouteSpec): HttpMiddleware => ({
  name: 'parse-and-validate',
  before: async (request) => {
    const e = request.event;
    const text = bodyText(e.body, e.isBase64Encoded);
    let rawBody: string | undefined;
    let body: unknown;
    if (route.body || route.bodyKind === 'raw') {
      rawBody = text;
      if (route.bodyKind !== 'raw') {
        checkContentType(route, e.headers?.['content-type']);
        body = parseJson(rawBody);
      }
    }
    request.internal.parts = {
      ...(await validateParts(route, { params: e.pathParameters ?? {}, query: e.queryStringParameters ?? {}, body })),
      rawBody,
    };
  },
});
