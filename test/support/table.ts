import { inject } from 'vitest';
import { randomUUID } from 'node:crypto';
import { resetConfig } from '../../shared/config';
import { resetClient } from '../../shared/store/db/client';
import { resetSecrets } from '../../shared/secrets';
import { clearEveryCache } from '../../shared/lib/ttl-cache';
import { ensureTable } from '../../infra/local/ensure-table';

export const GW_SECRET = 'test-gw-secret';
export const ADMIN_SECRET = 'test-admin-secret';
/** The service key: keys idempotency records and fingerprints, seals replies and cursors. */
export const SERVER_SECRET = 'test-server-secret';

/** Points the store at a fresh table of the shared DynamoDB Local, so each file is isolated. */
export async function useTestTable(): Promise<string> {
  const tableName = `t-${randomUUID()}`;
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
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
  await ensureTable(inject('dynamoEndpoint'), tableName);
  return tableName;
}
