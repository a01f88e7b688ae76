import type { TestProject } from 'vitest/node';
import 'vitest';
import { startDynamoLocal } from '../../infra/local/dynamodb-local';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

/** One in-memory DynamoDB Local for the run; files isolate themselves with their own tables. */
export default async function setup(project: TestProject) {
  const ddb = await startDynamoLocal(null);
  project.provide('dynamoEndpoint', ddb.endpoint);
  return () => ddb.stop();
}
