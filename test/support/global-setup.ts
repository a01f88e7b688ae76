import type { TestProject } from 'vitest/node';
import 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoLocal } from '../../infra/local/dynamodb-local';
import { cloudAssembly, FULL_CONTEXT } from './assembly';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One in-memory DynamoDB Local per test worker (test/support/dynamo-endpoint.ts picks a worker's). */
    dynamoEndpoints: string[];
    /** Where each test file writes the table actions its routes used (test/support/record-table-actions.ts). */
    tableActionsDir: string;
    /** Where each e2e file writes its exchanges with the stage (test/support/record-traffic.ts). */
    trafficDir: string;
  }
}

/**
 * An in-memory DynamoDB Local per test worker (its database runs on one thread: a single one for
 * the run kept the suite waiting on it with a core idle); files isolate themselves with their own tables.
 * When the run includes the files that need the synthesized stack (all files, or a filter naming
 * emulator or infra, or STAGE=emulator), its `cdk synth` starts here in the background: the test
 * workers keep running other files meanwhile instead of waiting for it.
 */
export default async function setup(project: TestProject) {
  const workers = Math.max(1, Number(project.vitest.config.maxWorkers) || 1);
  const instances = await Promise.all(Array.from({ length: workers }, () => startDynamoLocal(null)));
  project.provide(
    'dynamoEndpoints',
    instances.map((d) => d.endpoint),
  );
  // TABLE_ACTIONS_DIR keeps what each route sent and touched, to declare or look into a route's table access.
  const keptActions = process.env.TABLE_ACTIONS_DIR;
  if (keptActions) mkdirSync(keptActions, { recursive: true });
  const actionsDir = keptActions ?? mkdtempSync(join(tmpdir(), 'table-actions-'));
  // TRAFFIC_DIR keeps the e2e traffic after the run, to look into a violation the check reports.
  const keptTraffic = process.env.TRAFFIC_DIR;
  if (keptTraffic) mkdirSync(keptTraffic, { recursive: true });
  const trafficDir = keptTraffic ?? mkdtempSync(join(tmpdir(), 'traffic-'));
  project.provide('tableActionsDir', actionsDir);
  project.provide('trafficDir', trafficDir);
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern ?? [];
  const whole = filters.length === 0;
  const stack = whole || process.env.STAGE === 'emulator' || filters.some((f) => /emulator|infra/.test(f));
  // The stack with the demo and the data plane (FULL_CONTEXT), which test/emulator/authorizer.test.ts and data-plane.test.ts read: built right after.
  const demo = whole || filters.some((f) => /emulator/.test(f));
  const building = stack
    ? cloudAssembly()
        .then(() => (demo ? cloudAssembly(FULL_CONTEXT) : undefined))
        .catch(() => undefined)
    : undefined;
  return async () => {
    // A failed synth is reported by the files that need it (they try again and fail with its output).
    await building;
    if (!keptActions) rmSync(actionsDir, { recursive: true, force: true });
    if (!keptTraffic) rmSync(trafficDir, { recursive: true, force: true });
    await Promise.all(instances.map((d) => d.stop()));
  };
}
