/**
 * Setup file of every test file (vitest.config.ts): notes each DynamoDB command that a route's
 * handler sends through the local stage, as the IAM actions it needs, under the route's name
 * (infra/local/route-scope.ts). Each file writes what it saw to the run's directory;
 * test/after/table-actions.test.ts compares the union with the route table's declarations.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, inject } from 'vitest';
import { routeScope } from '../../infra/local/route-scope';
import { iamActionsOf } from './iam-actions';

const seen = new Map<string, Set<string>>();
const PATCHED = Symbol.for('gw.tableActionsRecorder');

type From = typeof DynamoDBDocumentClient.from;
const docClient = DynamoDBDocumentClient as unknown as { from: From; [PATCHED]?: true };
if (!docClient[PATCHED]) {
  const from = docClient.from.bind(DynamoDBDocumentClient);
  docClient.from = ((client, translateConfig) => {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const route = routeScope.getStore();
        if (route) {
          let actions = seen.get(route);
          if (!actions) seen.set(route, (actions = new Set()));
          for (const a of iamActionsOf(context.commandName ?? '?', args.input)) actions.add(a);
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
  const routes = Object.fromEntries([...seen].map(([route, actions]) => [route, [...actions].sort()]));
  const name = relative(process.cwd(), path).replace(/[^A-Za-z0-9.-]+/g, '_');
  writeFileSync(join(inject('tableActionsDir'), `${name}-${process.pid}.json`), JSON.stringify({ file: relative(process.cwd(), path), routes }));
});
