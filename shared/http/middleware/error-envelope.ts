/**
 * Middleware, registered last so that its onError runs first: every failure of the request
 * leaves as the envelope of the route's credential group (shared/http/respond.ts decides the
 * status; errors above 499 are logged with the request id and never show internals).
 */
import type { RouteDef } from '../../route-def';
import { errorResult } from '../respond';
import { requestIdOf, type HttpMiddleware } from './state';

export const errorEnvelope = (route: RouteDef): HttpMiddleware => ({
  name: 'error-envelope',
  onError: async (request) => {
    request.response = errorResult(route.group, request.error, requestIdOf(request.event), `${route.method} ${route.path}`);
  },
});
