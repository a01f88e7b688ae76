/**
 * Grants a function exactly the table actions its route declares (shared/route-def.ts
 * `tableActions`), nothing else: no Scan, no action a route's code never sends. Only Query
 * reaches the indexes, so only a route that queries gets `<table>/index/*`. With the table's
 * key (cmk=on) DynamoDB uses it on the caller's behalf: kms:Decrypt to read, kms:Encrypt and
 * kms:GenerateDataKey too to write (CDK's table grants without their wildcards), on that key only.
 * The item grant names the partitions of the entities the function touches (leading-keys.ts:
 * a `dynamodb:LeadingKeys` condition); with no entity, it has no item grant at all (a function
 * that only queries indexes). The index grant (Query only) carries no LeadingKeys condition: for
 * an index that key names the index's partition, not the item's. With `writesOnly`, the write
 * actions are granted on those entities' partitions alone, and the rest on the other entities'
 * (a read route, whose one write is its organisation limit's counter).
 */
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { WRITE_TABLE_ACTIONS, type TableAction } from '../../shared/route-def';
import { leadingKeysOf } from './leading-keys';

export function grantTableActions(
  fn: IFunction,
  table: ITableV2,
  grant: { actions: readonly TableAction[]; entities: readonly string[]; key?: IKey; writesOnly?: readonly string[] },
): void {
  const { actions, key, writesOnly } = grant;
  if (actions.length === 0) return;
  const isWrite = (a: TableAction) => (WRITE_TABLE_ACTIONS as readonly string[]).includes(a);
  const itemGrant = (granted: readonly TableAction[], entities: readonly string[]) => {
    const leadingKeys = leadingKeysOf(entities);
    if (!granted.length || !leadingKeys.length) return;
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: granted.map((a) => `dynamodb:${a}`),
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': leadingKeys } },
      }),
    );
  };
  if (writesOnly) {
    itemGrant(
      actions.filter((a) => !isWrite(a)),
      grant.entities.filter((e) => !writesOnly.includes(e)),
    );
    itemGrant(actions.filter(isWrite), writesOnly);
  } else itemGrant(actions, grant.entities);
  if (actions.includes('Query')) {
    fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${table.tableArn}/index/*`] }));
  }
  if (key) {
    const writes = actions.some(isWrite);
    fn.addToRolePolicy(new PolicyStatement({ actions: ['kms:Decrypt', ...(writes ? ['kms:Encrypt', 'kms:GenerateDataKey'] : [])], resources: [key.keyArn] }));
  }
}
