/**
 * What an HTTP API stage logs per request (the management API's and the data plane's): the route
 * template, never the raw path or a header, since paths and headers carry clear keys
 * (GET /gw/keys/<key>, Authorization) and these logs outlive the stack.
 */
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';

export const accessLogFormat = (extra: Record<string, string> = {}) =>
  AccessLogFormat.custom(
    JSON.stringify({
      requestId: '$context.requestId',
      ip: '$context.identity.sourceIp',
      method: '$context.httpMethod',
      routeKey: '$context.routeKey',
      status: '$context.status',
      latency: '$context.responseLatency',
      ...extra,
      integrationError: '$context.integrationErrorMessage',
    }),
  );
