/**
 * AWS Powertools for TypeScript's Tracer, which loads the X-Ray SDK (aws-xray-sdk-core). Only
 * tracer.ts imports this file, on the first sampled invocation: it is a chunk of its own in the
 * bundles, so a function's start never loads it. Constructing the Tracer patches node:http and
 * node:https, so the outbound requests from then on (webhook calls, import by URL) are
 * subsegments too.
 */
import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from './service';

const tracer = new Tracer({ serviceName: SERVICE_NAME });

/** Adds X-Ray's middleware to an AWS SDK client (in place): each call a subsegment. */
export const captureClient = <T>(client: T): T => tracer.captureAWSv3Client(client);
