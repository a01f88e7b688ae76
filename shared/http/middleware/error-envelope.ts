/**
 * Middleware, registered last so that its onError runs first: every failure of the request
 * leaves as the envelope of the route's credential group (shared/http/respond.ts decides the
 * status; errors above 499 are logged with the request id and never show internals).
 */
import { NotFound, PreconditionFailed } from '../../errors';
import type { RouteSpec } from '../../route-def';
import { errorResult } from '../respond';
import { requestIdOf, type HttpMiddleware } from './state';

export const errorEnvelope = (route: RouteSpec): HttpMiddleware => ({
  name: 'error-envelope',
  onError: async (request) => {
    // `If-Match: *` asks for any current version, so an absent object fails the condition
    // (contract §3): 412, for an unknown object and another organisation's alike.
    const error =
      route.etag && request.internal.ifMatch === '*' && request.error instanceof NotFound
        ? new PreconditionFailed('If-Match: * names the current version, and there is none')
        : request.error;
    request.response = errorResult(route.group, error, requestIdOf(request.event));
  },
});
