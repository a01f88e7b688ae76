import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../../config';
import { traced } from '../../observability/tracer';
import { assertWriteFits } from './item-size';
import { marshallableInput } from './own-constructor';

let doc: DynamoDBDocumentClient | undefined;
let counters: DynamoDBDocumentClient | undefined;

function baseOptions(): DynamoDBClientConfig {
  const c = config();
  return {
    region: c.region,
    ...(c.dynamoEndpoint ? { endpoint: c.dynamoEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    maxAttempts: 5,
  };
}

/** The SDK's retry strategy interface (its type package is not a dependency of ours). */
type RetryStrategyV2 = Extract<NonNullable<DynamoDBClientConfig['retryStrategy']>, { acquireInitialRetryToken: unknown }>;

const DOCUMENT_OPTIONS = { marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false } };

/** One document client per process; DynamoDB Local when DYNAMODB_ENDPOINT is set. */
export function ddb(): DynamoDBDocumentClient {
  if (doc) return doc;
  // Each call a subsegment of the invocation's trace (when tracing is on).
  const client = traced(new DynamoDBClient(baseOptions()));
  // Every write of the service passes here, so no write path can forget the item-size check. It
  // runs at the initialize step, before the document client marshals (at serialize), so it sizes
  // the native values it was given; then objects with an own `constructor` member are made ones
  // the marshaller stores faithfully (own-constructor.ts).
  client.middlewareStack.add(
    (next) => async (args) => {
      assertWriteFits(args.input as Record<string, unknown>);
      return next({ ...args, input: marshallableInput(args.input) });
    },
    { step: 'initialize', name: 'itemSizeGuard' },
  );
  doc = DynamoDBDocumentClient.from(client, DOCUMENT_OPTIONS);
  return doc;
}

/**
 * The client of the check's counter writes: it retries like ddb() (network errors, 5xx), except
 * that a throttled write fails at once, so the caller can spend on another shard of a hot
 * counter instead of waiting out the SDK's back-off on the one item that is over its ceiling
 * (shared/store/live-quota/shards.ts). Only conditional single-item UpdateItems go through it.
 */
export function counterDb(): DynamoDBDocumentClient {
  if (counters) return counters;
  const standard = new DynamoDBClient(baseOptions()).config.retryStrategy as () => Promise<RetryStrategyV2>;
  const retryStrategy: RetryStrategyV2 = {
    acquireInitialRetryToken: async (scope) => (await standard()).acquireInitialRetryToken(scope),
    refreshRetryTokenForRetry: async (token, info) => {
      // Rejecting here makes the SDK throw the throttling error itself, unretried.
      if (info.errorType === 'THROTTLING') throw info.error;
      return (await standard()).refreshRetryTokenForRetry(token, info);
    },
    recordSuccess: (token) => void standard().then((s) => s.recordSuccess(token)),
  };
  counters = DynamoDBDocumentClient.from(traced(new DynamoDBClient({ ...baseOptions(), retryStrategy })), DOCUMENT_OPTIONS);
  return counters;
}

export const tableName = (): string => config().tableName;

/** Tests point the store at another table or endpoint. */
export function resetClient(): void {
  doc = undefined;
  counters = undefined;
}
