import { routeList } from '../routes';
import { groupOfPath } from '../route-def';
import { MethodNotAllowed, NotFound } from '../errors';
import { errorResult, finalise, type Result } from './respond';
import { routeMatcher } from './route-match';

/**
 * The route table under API Gateway's precedence (shared/http/route-match.ts): the route a request
 * reaches on every stage, and the methods a path takes.
 */
export const tableRoutes = routeMatcher(routeList);

/** 404 for an unknown path, 405 for a known path with another method, in the prefix's envelope. */
export function fallbackResponse(method: string, path: string, requestId?: string): Result {
  const allowed = tableRoutes.methodsOf(path);
  const group = groupOfPath(path);
  const status = allowed.length ? 405 : 404;
  const message = allowed.length ? `Method ${method} is not allowed here; use ${allowed.join(', ')}` : `No route ${method} ${path}`;
  const reply = errorResult(group, status === 405 ? new MethodNotAllowed(message) : new NotFound(message), '');
  return finalise({ ...reply, headers: { ...reply.headers, ...(allowed.length ? { Allow: allowed.join(', ') } : {}) } }, group, requestId);
}
