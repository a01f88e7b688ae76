import { routeList } from '../routes';
import { groupOfPath } from '../route-def';
import { MethodNotAllowed, NotFound } from '../errors';
import { errorResult, finalise, type Result } from './respond';
import type { RouteDef } from '../route-def';
import { closedRoutes, routeMatcher } from './route-match';

/**
 * The methods a fixed path lacks that a less specific sibling has (GET /api/apis/oas would be
 * GET /api/apis/{apiID}): routes of their own that answer 405, on every stage (the stack declares
 * them too, on the function that answers $default).
 */
const CLOSED_ROUTES = closedRoutes(routeList).map((r) => ({ ...r, closed: true as const }));

/**
 * The route table under API Gateway's precedence (shared/http/route-match.ts), with the closed
 * routes: the route a request reaches on every stage, and the methods a path takes.
 */
const tableRoutes = routeMatcher<RouteDef | (typeof CLOSED_ROUTES)[number]>([...routeList, ...CLOSED_ROUTES]);
const isRoute = (r: RouteDef | (typeof CLOSED_ROUTES)[number]): r is RouteDef => !('closed' in r);

/** The route a request reaches, with its path parameters; undefined when it is answered 404 or 405. */
export function matchRoute(method: string, path: string): { route: RouteDef; params: Record<string, string> } | undefined {
  const hit = tableRoutes.match(method, path);
  return hit && isRoute(hit.route) ? { route: hit.route, params: hit.params } : undefined;
}

/** 404 for an unknown path, 405 for a known path with another method, in the prefix's envelope. */
export function fallbackResponse(method: string, path: string, requestId?: string): Result {
  const allowed = tableRoutes.methodsOf(path, isRoute);
  const group = groupOfPath(path);
  const status = allowed.length ? 405 : 404;
  const message = allowed.length ? `Method ${method} is not allowed here; use ${allowed.join(', ')}` : `No route ${method} ${path}`;
  const reply = errorResult(group, status === 405 ? new MethodNotAllowed(message) : new NotFound(message), '');
  return finalise({ ...reply, headers: { ...reply.headers, ...(allowed.length ? { Allow: allowed.join(', ') } : {}) } }, group, requestId);
}
