import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../../config';
import { assertWriteFits } from './item-size';

let doc: DynamoDBDocumentClient | undefined;

/** One document client per process; DynamoDB Local when DYNAMODB_ENDPOINT is set. */
export function ddb(): DynamoDBDocumentClient {
  if (doc) return doc;
  const c = config();
  const client = new DynamoDBClient({
    region: c.region,
    ...(c.dynamoEndpoint
      ? { endpoint: c.dynamoEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
    maxAttempts: 5,
  });
  // Every write of the service passes here, so no write path can forget the item-size check. It
  // runs at the initialize step, before the document client marshals (at serialize), so it sizes
  // the native values it was given.
  client.middlewareStack.add(
    (next) => async (args) => {
      assertWriteFits(args.input as Record<string, unknown>);
      return next(args);
    },
    { step: 'initialize', name: 'itemSizeGuard' },
  );
  doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
  });
  return doc;
}

export const tableName = (): string => config().tableName;

/** Tests point the store at another table or endpoint. */
export function resetClient(): void {
  doc = undefined;
}
