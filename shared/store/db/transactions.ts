import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { backoff } from './backoff';
import { ddb, tableName } from './client';
import { isConditionFailure } from './items';
import type { StorageKey } from './storage-key';
import type { StoredAttrs, TransactItem, TxItem } from './tx-item';
import { pendingWriteUnit, settleWriteUnit, writeUnitSettled } from './write-unit';

export type { StoredAttrs, TransactItem, TxItem };

/** DynamoDB's most items in one TransactWriteItems. */
const MAX_TRANSACTION_ITEMS = 100;

/** The operations of `items` in order, each followed by what goes alongside it, and which item each came from. */
function flatten(items: TxItem[]): { ops: TransactItem[]; from: number[] } {
  const ops: TransactItem[] = [];
  const from: number[] = [];
  items.forEach((item, i) => {
    for (const op of [item.op, ...(item.alongside ?? [])]) {
      ops.push(op);
      from.push(i);
    }
  });
  return { ops, from };
}

/**
 * TransactWriteItems with domain errors: a failed condition maps to the error its item names.
 * Transactions that lose a race on a shared item (a list counter) are retried with jitter, so
 * concurrent creates in one organisation all succeed and the counter stays exact.
 */
export async function transactWrite(given: TxItem[]): Promise<void> {
  // The request's unit of its write limit rides along when it fits (write-unit.ts).
  let unit = pendingWriteUnit();
  if (unit && flatten(given).ops.length >= MAX_TRANSACTION_ITEMS) {
    await settleWriteUnit();
    unit = undefined;
  }
  const items = unit ? [...given, unit.item] : given;
  const { ops, from } = flatten(items);
  for (let attempt = 0; ; attempt++) {
    try {
      await ddb().send(new TransactWriteCommand({ TransactItems: ops }));
      if (unit) writeUnitSettled();
      return;
    } catch (e) {
      if (!(e instanceof TransactionCanceledException)) throw e;
      const reasons = e.CancellationReasons ?? [];
      // The limit's unit (the last item) is refused first, as it was when units were spent before the write.
      const unitFailed = unit !== undefined && reasons[ops.length - 1]?.Code === 'ConditionalCheckFailed';
      const failed = unitFailed ? ops.length - 1 : reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failed >= 0) {
        const item = items[from[failed]!];
        if (unit && item === unit.item) writeUnitSettled();
        const mapped = item?.onConditionFail?.(reasons[failed]?.Item as StoredAttrs | undefined);
        if (mapped) throw mapped;
        throw e;
      }
      const retryable = reasons.some((r) => r.Code === 'TransactionConflict' || r.Code === 'ThrottlingError');
      if (!retryable || attempt >= 12) throw e;
      await backoff(attempt);
    }
  }
}

/**
 * The writes of one change, all or nothing: a single Put, Delete or Update is sent as its own
 * command (half the write units of a transaction, and no transaction to wait for on the local
 * stage), several (what goes alongside included) as one TransactWriteItems. A failed condition maps
 * to its item's error either way.
 */
export async function writeItems(items: TxItem[]): Promise<void> {
  const only = items.length === 1 && !items[0]!.alongside?.length ? items[0]! : undefined;
  const command = only?.op.Put
    ? new PutCommand(only.op.Put)
    : only?.op.Delete
      ? new DeleteCommand(only.op.Delete)
      : only?.op.Update
        ? new UpdateCommand(only.op.Update)
        : undefined;
  // A write carrying the request's unit of its limit is a transaction of two (write-unit.ts).
  if (!only || !command || pendingWriteUnit()) return transactWrite(items);
  try {
    await ddb().send(command as PutCommand);
  } catch (e) {
    const mapped = isConditionFailure(e) ? only.onConditionFail?.(e.Item as StoredAttrs | undefined) : undefined;
    throw mapped ?? e;
  }
}

type Values = Record<string, unknown>;

/** A Put of a transaction, conditional when `condition` is given. */
export function putOp(item: Record<string, unknown>, condition?: string, values?: Values): TransactItem {
  return { Put: { TableName: tableName(), Item: item, ConditionExpression: condition, ExpressionAttributeValues: values } };
}

/** A Delete of a transaction, conditional when `condition` is given. */
export function deleteOp(key: StorageKey, condition?: string, values?: Values): TransactItem {
  return { Delete: { TableName: tableName(), Key: key, ConditionExpression: condition, ExpressionAttributeValues: values } };
}
