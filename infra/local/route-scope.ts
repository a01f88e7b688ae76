import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The route of the table that a local request is running, visible to everything the handler
 * awaits. Tools that watch the local stage read it: the table-actions recorder of the tests
 * attributes each DynamoDB command to the route whose code sent it.
 */
export const routeScope = new AsyncLocalStorage<string>();
