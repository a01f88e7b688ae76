import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { AppError } from '../../errors';
import { ddb, tableName } from './client';
import type { StorageKey } from './storage-key';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** An item in DynamoDB's wire form, as a cancellation reason carries it. */
export type StoredAttrs = Record<string, { S?: string } | undefined>;

export interface TxItem {
  op: TransactItem;
  /**
   * Error to raise when this item's condition fails (409 for a uniqueness marker, 404, 412...).
   * `old` is the item as it was, when the operation asked for it (`ReturnValuesOnConditionCheckFailure`).
   */
  onConditionFail?: (old?: StoredAttrs) => AppError;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * TransactWriteItems with domain errors: a failed condition maps to the error its item names.
 * Transactions that lose a race on a shared item (a list counter) are retried with jitter, so
 * concurrent creates in one organisation all succeed and the counter stays exact.
 */
export async function transactWrite(items: TxItem[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await ddb().send(new TransactWriteCommand({ TransactItems: items.map((i) => i.op) }));
      return;
    } catch (e) {
      if (!(e instanceof TransactionCanceledException)) throw e;
      const reasons = e.CancellationReasons ?? [];
      const failed = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failed >= 0) {
        const mapped = items[failed]?.onConditionFail?.(reasons[failed]?.Item as StoredAttrs | undefined);
        if (mapped) throw mapped;
        throw e;
      }
      const retryable = reasons.some((r) => r.Code === 'TransactionConflict' || r.Code === 'ThrottlingError');
      if (!retryable || attempt >= 12) throw e;
      await sleep(Math.min(500, 10 * 2 ** attempt) * (0.5 + Math.random()));
    }
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

/** A ConditionCheck of a transaction: the item at `key` must satisfy `condition`. */
export function conditionCheckOp(key: StorageKey, condition: string): TransactItem {
  return { ConditionCheck: { TableName: tableName(), Key: key, ConditionExpression: condition } };
}
