import { Duration } from 'aws-cdk-lib';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Pattern } from '../local/emulator/event-filter';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';

/** What a function fed by the table's stream needs of the stack (the audit trail, usage figures, offboarding). */
export interface StreamWorkerProps {
  table: ITableV2;
  encryptionKey?: IKey;
  /** Where batches that keep failing go (the webhook delivery's, whose alarm then fires). */
  deadLetterQueue: IQueue;
  makeFunction: (name: string, entry: string, environment: Record<string, string>, timeout: Duration) => LambdaFunction;
}

/**
 * The event source of a worker handed each move of its runs (offboarding, an import): the table's
 * stream from its oldest record, the runs its `filters` take (infra/stream-consumers.ts), batches
 * that keep failing dead-lettered (the last move of a run is handed over again by the next retry).
 */
export function runMoves(props: StreamWorkerProps, filters: readonly Pattern[]): DynamoEventSource {
  return new DynamoEventSource(props.table, {
    startingPosition: StartingPosition.TRIM_HORIZON,
    batchSize: 100,
    maxBatchingWindow: Duration.seconds(1),
    retryAttempts: 10,
    maxRecordAge: Duration.hours(24),
    onFailure: new SqsDlq(props.deadLetterQueue),
    filters: filters.map((p) => FilterCriteria.filter(p)),
  });
}
