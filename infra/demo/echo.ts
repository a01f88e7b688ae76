import type { APIGatewayProxyEventV2WithLambdaAuthorizer } from 'aws-lambda';

/**
 * The demo's upstream (`-c demo=on`, docs/using/serving-apis.md): stands in for the user's own
 * integration behind the authorizer, answering what the authorizer passed on, so a deploy shows
 * who was let through and how much quota is left.
 */
export const handler = async (event: APIGatewayProxyEventV2WithLambdaAuthorizer<Record<string, unknown>>) => ({
  statusCode: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ demo: true, path: event.rawPath, authorizer: event.requestContext.authorizer?.lambda ?? null }),
});
