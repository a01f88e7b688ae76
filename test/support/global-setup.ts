import type { TestProject } from 'vitest/node';
import 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoLocal } from '../../infra/local/dynamodb-local';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    /** Where each test file writes the table actions its routes used (test/support/record-table-actions.ts). */
    tableActionsDir: string;
  }
}

/** One in-memory DynamoDB Local for the run; files isolate themselves with their own tables. */
export default async function setup(project: TestProject) {
  const ddb = await startDynamoLocal(null);
  const actionsDir = mkdtempSync(join(tmpdir(), 'table-actions-'));
  project.provide('dynamoEndpoint', ddb.endpoint);
  project.provide('tableActionsDir', actionsDir);
  return async () => {
    rmSync(actionsDir, { recursive: true, force: true });
    await ddb.stop();
  };
}
