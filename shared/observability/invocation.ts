/**
 * What every invocation sets up and finishes, once (createHandler for the routes, `observed` for
 * the change feed and the attempt queue): the work it does (shared/request-context.ts: request id
 * and route, which every line any layer logs carries, and the Lambda context), the logger's level
 * (LOG_LEVEL, read through shared/config.ts so a test or the local stage can change it), and the
 * business metrics it stored written as EMF lines at the end. A sampled invocation first loads the
 * Tracer (tracer.ts), so its calls are subsegments.
 *
 * The work is per invocation, not per process: Lambda runs one invocation at a time in a process,
 * but the local stage serves many requests at once and runs the change feed beside them, so a
 * key set on the process's logger would name whichever invocation began last.
 */
import type { Context } from 'aws-lambda';
import { config, type Config } from '../config';
import { runAs, type WorkContext } from '../request-context';
import { logger } from './logger';
import { flushMetrics } from './metrics';
import { startTracing } from './tracer';

let invoked = false;

/** The Lambda context as the log lines show it; the process's first invocation is its cold start. */
function invocationOf(context: Context | undefined): WorkContext['invocation'] {
  // Lambda's context always has a request id; a test's or a script's call may come without one.
  if (!context?.awsRequestId) return undefined;
  const coldStart = !invoked;
  invoked = true;
  return { context, coldStart };
}

/** Runs `fn` as one invocation doing `work`: set up before it, its metrics written after it. */
export function invoke<T>(work: Omit<WorkContext, 'invocation'>, context: Context | undefined, fn: () => Promise<T>): Promise<T> {
  return runAs({ ...work, invocation: invocationOf(context) }, async () => {
    logger.setLogLevel(config().logLevel.toUpperCase() as Uppercase<Config['logLevel']>);
    await startTracing();
    try {
      return await fn();
    } finally {
      flushMetrics();
    }
  });
}

/** A handler of an event source (stream, queue) with the same set-up and finish as a route's; `name` is its lines' route. */
export function observed<E, R>(name: string, fn: (event: E) => Promise<R>): (event: E, context?: Context) => Promise<R> {
  return (event, context) => invoke({ route: name }, context, () => fn(event));
}
