/**
 * Grants a function exactly the table actions its route declares (shared/route-def.ts
 * `tableActions`), nothing else: no Scan, no action a route's code never sends. Only Query
 * reaches the indexes, so only a route that queries gets `<table>/index/*`.
 */
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { TableAction } from '../../shared/route-def';

export function grantTableActions(fn: IFunction, table: ITableV2, actions: readonly TableAction[]): void {
  if (actions.length === 0) return;
  fn.addToRolePolicy(new PolicyStatement({ actions: actions.map((a) => `dynamodb:${a}`), resources: [table.tableArn] }));
  if (actions.includes('Query')) {
    fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${table.tableArn}/index/*`] }));
  }
}
