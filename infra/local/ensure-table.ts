import {
  CreateTableCommand,
  DescribeTableCommand,
  UpdateTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, TABLE_STREAM, TTL_ATTRIBUTE } from '../../shared/store/db/table';

/** Creates the table from the shared definition when it does not exist yet. */
export async function ensureTable(endpoint: string, tableName: string): Promise<'created' | 'existing'> {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    // A table made before the change feed existed (an older DATA_DIR) gets its stream now.
    if (!Table?.StreamSpecification?.StreamEnabled) {
      await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: TABLE_STREAM }));
    }
    return 'existing';
  } catch (e) {
    if (!(e instanceof ResourceNotFoundException)) throw e;
  }
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true } }));
  } catch (e) {
    if (e instanceof ResourceInUseException) return 'existing';
    throw e;
  } finally {
    client.destroy();
  }
  return 'created';
}
