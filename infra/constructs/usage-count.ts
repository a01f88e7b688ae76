/**
 * Usage for billing in the cloud (contract §14): the table's stream feeds the usage consumer
 * (functions/billing/change-feed.ts, the handler the local stage invokes too) through an event
 * source mapping of its own, filtered to the writes that carry a tally: a counter's spend (its
 * `tally_of` set) and a refusal tally. It is the only function granted the figures' writes: one
 * BatchGetItem of the positions and one TransactWriteItems (UpdateItem per item) per run of
 * records, on its entities' partitions only (leading-keys.ts). Batches that keep failing go to the
 * webhook delivery's dead-letter queue (whose alarm then fires).
 */
import { Duration } from 'aws-cdk-lib';
import { FilterCriteria, type Function as LambdaFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import type { TableAction } from '../../shared/route-def';
import { STREAM_CONSUMERS } from '../stream-consumers';
import { OFFBOARDING_READ, USAGE_CONSUMER_ENTITIES } from './leading-keys';
import type { StreamWorkerProps } from './stream-worker';
import { grantTableActions } from './table-grants';

/** What the consumer sends: the positions (BatchGetItem) and the figures with them (UpdateItem in a transaction). */
export const USAGE_TABLE_ACTIONS: readonly TableAction[] = ['BatchGetItem', 'UpdateItem'];

export class UsageCount extends Construct {
  readonly consumer: LambdaFunction;

  constructor(scope: Construct, id: string, props: StreamWorkerProps) {
    super(scope, id);
    this.consumer = props.makeFunction('usageCount', 'functions/billing/change-feed.ts', {}, Duration.seconds(60));
    grantTableActions(this.consumer, props.table, { actions: USAGE_TABLE_ACTIONS, entities: USAGE_CONSUMER_ENTITIES, key: props.encryptionKey });
    grantTableActions(this.consumer, props.table, { ...OFFBOARDING_READ, key: props.encryptionKey });
    this.consumer.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 1000,
        maxBatchingWindow: Duration.seconds(2),
        // Ten batches of one shard at once: Lambda keeps each item's records in order (the same
        // partition key goes to the same one), which is all the positions need.
        parallelizationFactor: 10,
        retryAttempts: 10,
        maxRecordAge: Duration.hours(24),
        onFailure: new SqsDlq(props.deadLetterQueue),
        filters: STREAM_CONSUMERS.usage.map((p) => FilterCriteria.filter(p)),
      }),
    );
  }
}
