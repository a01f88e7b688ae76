/**
 * What every invocation sets up and finishes, once (createHandler for the routes, `observed` for
 * the change feed and the attempt queue): the logger's level (LOG_LEVEL, read through
 * shared/config.ts so a test or the local stage can change it), the Lambda context and the keys
 * of this invocation (request id, route) appended to every line any layer logs, and the business
 * metrics it stored written as EMF lines at the end.
 */
import type { Context } from 'aws-lambda';
import { config, type Config } from '../config';
import { logger } from './logger';
import { flushMetrics } from './metrics';

/** Starts an invocation's log keys; the keys of the one before are dropped. */
export function beginInvocation(keys: Record<string, string>, context?: Context): void {
  logger.setLogLevel(config().logLevel.toUpperCase() as Uppercase<Config['logLevel']>);
  logger.resetKeys();
  // The local server's context has no request id of its own: nothing of Lambda's to add then.
  if (context?.awsRequestId) logger.addContext(context);
  logger.appendKeys(keys);
}

/** Writes the invocation's metrics. */
export function endInvocation(): void {
  flushMetrics();
}

/** A handler of an event source (stream, queue) with the same set-up and finish as a route's. */
export function observed<E, R>(name: string, fn: (event: E) => Promise<R>): (event: E, context?: Context) => Promise<R> {
  return async (event, context) => {
    beginInvocation({ route: name }, context);
    try {
      return await fn(event);
    } finally {
      endInvocation();
    }
  };
}
