/**
 * The IAM actions a DynamoDB command needs, as IAM authorises it: a transaction is not an action
 * of its own, each of its items is (Put -> PutItem, Update -> UpdateItem, Delete -> DeleteItem,
 * ConditionCheck -> ConditionCheckItem, Get -> GetItem).
 */
const SINGLE: Record<string, string> = {
  GetItemCommand: 'GetItem',
  PutItemCommand: 'PutItem',
  UpdateItemCommand: 'UpdateItem',
  DeleteItemCommand: 'DeleteItem',
  QueryCommand: 'Query',
  ScanCommand: 'Scan',
  BatchGetItemCommand: 'BatchGetItem',
  BatchWriteItemCommand: 'BatchWriteItem',
  DescribeTableCommand: 'DescribeTable',
};

const TRANSACT_ITEM: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
  Get: 'GetItem',
};

/** Unknown commands come back as `?<CommandName>` so a comparison shows them instead of dropping them. */
export function iamActionsOf(commandName: string, input: unknown): string[] {
  if (commandName === 'TransactWriteItemsCommand' || commandName === 'TransactGetItemsCommand') {
    const items = (input as { TransactItems?: Array<Record<string, unknown>> }).TransactItems ?? [];
    return [...new Set(items.flatMap((item) => Object.keys(item).map((k) => TRANSACT_ITEM[k] ?? `?${commandName}.${k}`)))];
  }
  return [SINGLE[commandName] ?? `?${commandName}`];
}
