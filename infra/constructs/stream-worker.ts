import type { Duration } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';

/** What a function fed by the table's stream needs of the stack (the audit trail, usage figures, offboarding). */
export interface StreamWorkerProps {
  table: ITableV2;
  encryptionKey?: IKey;
  /** Where batches that keep failing go (the webhook delivery's, whose alarm then fires). */
  deadLetterQueue: IQueue;
  makeFunction: (name: string, entry: string, environment: Record<string, string>, timeout: Duration) => LambdaFunction;
}
