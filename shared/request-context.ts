/**
 * The work an invocation does, for whatever runs below its handler: a request (its id, its route,
 * who sends it) or a batch of an event source (the change feed, the attempt queue: its name as the
 * route, no request id). shared/observability/invocation.ts opens one per invocation and auth
 * names the actor. The store stamps the actor and request id onto every item it writes
 * (shared/store/db/audit-stamp.ts), so the change feed knows who made each change without a write
 * of its own (contract §12), and every log line carries the work's request id and route
 * (shared/observability/logger.ts). AsyncLocalStorage keeps works apart however they interleave
 * in one process: the local stage serves many requests at once and runs the change feed beside them.
 *
 * Every route enters one, the check's too. On Node 24 (Lambda's runtime, the line .nvmrc names) the
 * store rides on V8's continuation data and an await costs next to nothing. On Node 20 and 22 the first
 * store entered anywhere turns on a promise hook for every promise of the process, entered or not,
 * so keeping the check out of it would save nothing while the change feed and the other routes run
 * beside it; handing the work down by hand would have to reach every log line and stamped write.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from 'aws-lambda';

/** Who made a change: a dashboard user, the gateway, an operator (admin), or the service itself. */
export type Actor =
  | { type: 'user'; id: string; email?: string }
  | { type: 'gateway' }
  | { type: 'admin' }
  | { type: 'developer'; id: string }
  | { type: 'system' };

export interface WorkContext {
  /** A request's `METHOD /path/{template}`; an event source's name (`change-feed`, `attempt-queue`, `audit-trail`). */
  route: string;
  /** A request's id; an event source's work has none. */
  requestId?: string;
  /** Known once a request's credential is checked; absent before, on public routes and for event sources. */
  actor?: Actor;
  /** The Lambda context the work was invoked with, when it has one, and whether it was the process's first. */
  invocation?: { context: Context; coldStart: boolean };
}

export interface RequestContext extends WorkContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<WorkContext>();

/** Runs `fn` as `work`: everything it awaits sees the work. */
export const runAs = <T>(work: WorkContext, fn: () => T): T => storage.run(work, fn);

/** The work being done, or undefined outside any (start-up, scripts). */
export const currentWork = (): WorkContext | undefined => storage.getStore();

/** The request being served, or undefined outside one (the change feed, scripts). */
export function currentRequest(): RequestContext | undefined {
  const work = storage.getStore();
  return work?.requestId === undefined ? undefined : (work as RequestContext);
}

/** Names who sends the request being served (a no-op outside one). */
export function setActor(actor: Actor): void {
  const context = currentRequest();
  if (context) context.actor = actor;
}
