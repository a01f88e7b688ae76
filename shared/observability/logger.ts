/**
 * The one logger of every layer (AWS Powertools for TypeScript's Logger): one JSON object a line
 * on stdout, with the level, the time, the service, and the keys the invocation appended (request
 * id, route: shared/observability/invocation.ts). LOG_LEVEL (shared/config.ts) sets the threshold.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { SERVICE_NAME } from './service';

export const logger = new Logger({ serviceName: SERVICE_NAME });

/** An error as a log field: name and message (the stack only for errors we did not expect). */
export const errorField = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));
