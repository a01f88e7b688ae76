/**
 * Setup file of every test file (vitest.config.ts): notes each DynamoDB command that a route's
 * handler sends through the local stage, as the IAM actions it needs, under the route's name
 * (infra/local/route-scope.ts), and the partition keys it touched. Each file writes what it saw to the run's directory;
 * test/after/table-actions.test.ts compares the union with the route table's declarations.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, inject } from 'vitest';
import { routeScope, watchRoutes } from '../../infra/local/route-scope';
import { iamActionsOf } from './iam-actions';
import { partitionKeysOf } from './partition-keys';

/** What one test file's routes did; the SDK middleware below notes into the current file's. */
interface Recording {
  /** Per route: the IAM actions, and the DynamoDB operations (API names) as the metrics name them. */
  seen: Map<string, Set<string>>;
  operations: Map<string, Set<string>>;
  /** Per route: the partition keys of the table it touched (test/after/table-entities.test.ts). */
  partitions: Map<string, Set<string>>;
}
const note = (map: Map<string, Set<string>>, route: string, values: string[]) => {
  let set = map.get(route);
  if (!set) map.set(route, (set = new Set()));
  for (const v of values) set.add(v);
};
// Files that share a worker's modules (vitest.config.ts) share the patched SDK, while this file
// runs again before each of them: the patch, made once, notes into whichever recording is current.
const CURRENT = Symbol.for('gw.tableActionsRecording');
const shared = globalThis as { [CURRENT]?: Recording };
const recording: Recording = { seen: new Map(), operations: new Map(), partitions: new Map() };
shared[CURRENT] = recording;
const PATCHED = Symbol.for('gw.tableActionsRecorder');
watchRoutes();

type From = typeof DynamoDBDocumentClient.from;
const docClient = DynamoDBDocumentClient as unknown as { from: From; [PATCHED]?: true };
if (!docClient[PATCHED]) {
  const from = docClient.from.bind(DynamoDBDocumentClient);
  docClient.from = ((client, translateConfig) => {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const route = routeScope.getStore();
        const current = shared[CURRENT];
        if (route && current) {
          const command = context.commandName ?? '?';
          note(current.seen, route, iamActionsOf(command, args.input));
          note(current.operations, route, [command.replace(/Command$/, '')]);
          note(current.partitions, route, partitionKeysOf(command, args.input));
        }
        return next(args);
      },
      { step: 'initialize', name: 'tableActionsRecorder', override: true },
    );
    return from(client, translateConfig);
  }) as From;
  docClient[PATCHED] = true;
}

afterAll(({}, file) => {
  const path = (file as { filepath?: string }).filepath ?? 'unknown';
  const plain = (map: Map<string, Set<string>>) => Object.fromEntries([...map].map(([route, values]) => [route, [...values].sort()]));
  const name = relative(process.cwd(), path).replace(/[^A-Za-z0-9.-]+/g, '_');
  writeFileSync(
    join(inject('tableActionsDir'), `${name}-${process.pid}.json`),
    JSON.stringify({
      file: relative(process.cwd(), path),
      routes: plain(recording.seen),
      operations: plain(recording.operations),
      partitions: plain(recording.partitions),
    }),
  );
});
