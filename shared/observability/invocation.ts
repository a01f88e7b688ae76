/**
 * What every invocation sets up and finishes, once (createHandler for the routes, `observed` for
 * the change feed and the attempt queue): the logger's level (LOG_LEVEL, read through
 * shared/config.ts so a test or the local stage can change it), the Lambda context and the keys
 * of this invocation (request id, route) appended to every line any layer logs, and the business
 * metrics it stored written as EMF lines at the end. A sampled invocation first loads the Tracer
 * (tracer.ts), so its calls are subsegments.
 */
import type { Context } from 'aws-lambda';
import { config, type Config } from '../config';
import { logger } from './logger';
import { flushMetrics } from './metrics';
import { startTracing } from './tracer';

/**
 * Starts an invocation's log keys (at once; the keys of the one before are dropped) and, when
 * X-Ray samples it, its tracing: await it before the handler's work.
 */
export function beginInvocation(keys: Record<string, string>, context?: Context): Promise<void> {
  logger.setLogLevel(config().logLevel.toUpperCase() as Uppercase<Config['logLevel']>);
  logger.resetKeys();
  // The local server's context has no request id of its own: nothing of Lambda's to add then.
  if (context?.awsRequestId) logger.addContext(context);
  logger.appendKeys(keys);
  return startTracing();
}

/** Writes the invocation's metrics. */
export function endInvocation(): void {
  flushMetrics();
}

/** A handler of an event source (stream, queue) with the same set-up and finish as a route's. */
export function observed<E, R>(name: string, fn: (event: E) => Promise<R>): (event: E, context?: Context) => Promise<R> {
  return async (event, context) => {
    try {
      await beginInvocation({ route: name }, context);
      return await fn(event);
    } finally {
      endInvocation();
    }
  };
}
