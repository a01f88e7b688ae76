import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { resetConfig } from '../../shared/config';
import { resetClient } from '../../shared/store/db/client';
import { resetSecrets } from '../../shared/secrets';
import { clearEveryCache } from '../../shared/lib/ttl-cache';
import { ensureTable } from '../../infra/local/ensure-table';
import { workerDynamoEndpoint } from './dynamo-endpoint';

export const GW_SECRET = 'test-gw-secret';
export const ADMIN_SECRET = 'test-admin-secret';
/** The service key: keys idempotency records and fingerprints, seals replies and cursors. */
export const SERVER_SECRET = 'test-server-secret';

/** The tables this file made, dropped once it ends (dropTestTables). */
const made: string[] = [];

/** Points the store at a fresh table of the shared DynamoDB Local, so each file is isolated. */
export async function useTestTable(): Promise<string> {
  const tableName = `t-${randomUUID()}`;
  made.push(tableName);
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: workerDynamoEndpoint(),
    TABLE_NAME: tableName,
    GW_SECRET,
    ADMIN_SECRET,
    SERVER_SECRET,
    LOG_LEVEL: 'warn',
  });
  resetConfig();
  resetClient();
  resetSecrets();
  clearEveryCache();
  await ensureTable(workerDynamoEndpoint(), tableName);
  return tableName;
}

/**
 * Drops the tables this file made (the full suite's setup file calls it after each file). The
 * shared DynamoDB Local keeps every table, its items and its stream in memory until the run ends:
 * a hundred files' leftovers made each of its answers slower for every later file.
 */
export async function dropTestTables(): Promise<void> {
  const tables = made.splice(0);
  if (!tables.length) return;
  const client = new DynamoDBClient({ endpoint: workerDynamoEndpoint(), region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    // A table another file still uses cannot be among them; one already gone is fine.
    await Promise.all(tables.map((TableName) => client.send(new DeleteTableCommand({ TableName })).catch(() => undefined)));
  } finally {
    client.destroy();
  }
}
