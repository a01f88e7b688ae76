/** One write of a transaction, with the error its failed condition means (shared/store/db/transactions.ts sends them). */
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** An item in DynamoDB's wire form, as a cancellation reason carries it. */
export type StoredAttrs = Record<string, { S?: string } | undefined>;

export interface TxItem {
  op: TransactItem;
  /**
   * Error to raise when this item's condition fails (409 for a uniqueness marker, 404, 412, or a
   * lost race the versioned-write helper reads again). `old` is the item as it was, when the
   * operation asked for it (`ReturnValuesOnConditionCheckFailure`).
   */
  onConditionFail?: (old?: StoredAttrs) => Error;
  /** Writes that go with this one, unconditionally, in the same transaction (an audited delete's deletion record). */
  alongside?: TransactItem[];
}
