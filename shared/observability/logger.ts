/**
 * The one logger of every layer (AWS Powertools for TypeScript's Logger): one JSON object a line
 * on stdout, with the level, the time, the service, and the keys of the work that writes the line
 * (shared/request-context.ts): a request's id and route, or an event source's name as the route,
 * and the Lambda context it was invoked with. LOG_LEVEL (shared/config.ts) sets the threshold.
 *
 * The keys are read when a line is written, from the work the writing code runs in, rather than
 * set on the logger when an invocation begins: the logger is one per process, and the local stage
 * runs many invocations at once (invocation.ts).
 */
import { LogFormatter, Logger, LogItem } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import { currentWork } from '../request-context';
import { SERVICE_NAME } from './service';

/** Powertools' standard keys, with the Lambda context, request id and route of the work that writes the line. */
class WorkLogFormatter extends LogFormatter {
  formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    const work = currentWork();
    const lambda = work?.invocation?.context;
    return new LogItem({
      attributes: {
        level: attributes.logLevel,
        message: attributes.message,
        timestamp: this.formatTimestamp(attributes.timestamp),
        service: attributes.serviceName,
        cold_start: work?.invocation?.coldStart,
        function_arn: lambda?.invokedFunctionArn,
        function_memory_size: lambda?.memoryLimitInMB,
        function_name: lambda?.functionName,
        function_request_id: lambda?.awsRequestId,
        sampling_rate: attributes.sampleRateValue,
        xray_trace_id: attributes.xRayTraceId,
        tenant_id: lambda?.tenantId,
        requestId: work?.requestId,
        route: work?.route,
      },
    }).addAttributes(additional);
  }
}

export const logger = new Logger({ serviceName: SERVICE_NAME, logFormatter: new WorkLogFormatter() });

/** An error as a log field: name and message (the stack only for errors we did not expect). */
export const errorField = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));
