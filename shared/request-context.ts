/**
 * The request an invocation serves, for whatever runs below the handler: its id, its route and
 * who sends it. createHandler (shared/http) opens one per invocation and auth names the actor;
 * the store stamps the actor and request id onto every item it writes (shared/store/db/audit-stamp.ts),
 * so the change feed knows who made each change without a write of its own (contract §12).
 * AsyncLocalStorage keeps requests apart however they interleave in one process (the local stage
 * serves many at once).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Who made a change: a dashboard user, the gateway, an operator (admin), or the service itself. */
export type Actor = { type: 'user'; id: string; email?: string } | { type: 'gateway' } | { type: 'admin' } | { type: 'system' };

export interface RequestContext {
  requestId: string;
  /** `METHOD /path/{template}`. */
  route: string;
  /** Known once the credential is checked; absent before, and on public routes. */
  actor?: Actor;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` as the request `context`: everything it awaits sees the context. */
export const runInRequest = <T>(context: RequestContext, fn: () => Promise<T>): Promise<T> => storage.run(context, fn);

/** The request being served, or undefined outside one (the change feed, scripts). */
export const currentRequest = (): RequestContext | undefined => storage.getStore();

/** Names who sends the request being served (a no-op outside one). */
export function setActor(actor: Actor): void {
  const context = storage.getStore();
  if (context) context.actor = actor;
}
