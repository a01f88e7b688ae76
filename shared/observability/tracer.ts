/**
 * X-Ray traces (AWS Powertools for TypeScript's Tracer). The functions run with active tracing
 * (infra/stack.ts): each invocation has its segment, and every AWS SDK client built through
 * `traced()` (DynamoDB, SQS, Secrets Manager) and every outbound HTTP request (the webhook calls,
 * the import by URL: Tracer patches node:http and node:https) is a subsegment of it. Outside
 * Lambda (local stage, tests) Tracer turns itself off and `traced()` hands the client back as is.
 */
import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from './service';

const tracer = new Tracer({ serviceName: SERVICE_NAME });

/** The client, its calls traced as subsegments when tracing is on. */
export const traced = <T>(client: T): T => tracer.captureAWSv3Client(client);
