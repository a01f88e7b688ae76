import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The route of the table that a local request is running, visible to everything the handler
 * awaits. Tools that watch the local stage read it: the table-actions recorder of the tests
 * attributes each DynamoDB command to the route whose code sent it. The server keeps it only
 * once a tool asked (watchRoutes()): an async context on every request costs each await, and
 * API Gateway adds nothing of the kind, so the stage that `npm start` and the benchmarks run
 * does without it.
 */
export const routeScope = new AsyncLocalStorage<string>();

let watched = false;

/** Called by a tool that reads routeScope, before requests arrive. */
export function watchRoutes(): void {
  watched = true;
}

/** Runs `fn` inside the route's scope when a tool watches routes; else just runs it. */
export function inRouteScope<T>(route: string, fn: () => T): T {
  return watched ? routeScope.run(route, fn) : fn();
}
