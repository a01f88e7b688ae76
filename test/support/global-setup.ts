import type { TestProject } from 'vitest/node';
import 'vitest';
import { startDynamoLocal } from '../../infra/local/dynamodb-local';
import { cloudAssembly } from './assembly';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

/**
 * One in-memory DynamoDB Local for the run; files isolate themselves with their own tables.
 * When the run includes the files that need the synthesized stack (all files, or a filter naming
 * emulator or infra), its `cdk synth` starts here in the background: the single test worker of a
 * 2-core machine keeps running other files meanwhile instead of waiting for it.
 */
export default async function setup(project: TestProject) {
  const ddb = await startDynamoLocal(null);
  project.provide('dynamoEndpoint', ddb.endpoint);
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern ?? [];
  const building = filters.length === 0 || filters.some((f) => /emulator|infra/.test(f)) ? cloudAssembly().catch(() => undefined) : undefined;
  return async () => {
    // A failed synth is reported by the files that need it (they try again and fail with its output).
    await building;
    await ddb.stop();
  };
}
