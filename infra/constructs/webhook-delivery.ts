/**
 * Webhook delivery in the cloud (contract §11): the table's stream feeds one delivery function
 * (functions/hooks/change-feed.ts, the handler the local stage invokes too) through an event
 * source mapping that batches, bisects a failing batch and sends what still fails to the
 * dead-letter queue; failed attempts are retried through the retry queue, whose messages arrive
 * after their delay (functions/hooks/retry-queue.ts) and go to the same dead-letter queue after
 * five receives. Each function gets only the table actions its code sends.
 */
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { TableAction } from '../../shared/route-def';
import { grantTableActions } from './table-grants';

/** What the delivery code sends: routing reads the API (Query) and the key's policies (BatchGetItem), a delivery is a transaction of Puts, attempts are conditional Updates. */
export const DELIVERY_TABLE_ACTIONS: readonly TableAction[] = ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'];
/** A retry reads and updates its delivery and reads its hook. */
export const RETRY_TABLE_ACTIONS: readonly TableAction[] = ['GetItem', 'UpdateItem'];

/** How long one invocation may take: a batch's attempts run side by side, each at most 10 s. */
export const DELIVERY_TIMEOUT = Duration.seconds(60);

export interface WebhookDeliveryProps {
  table: ITableV2;
  serviceKey: ISecret;
  /** cmk=on: the stage's key encrypts both queues; off, SQS's own keys do. */
  encryptionKey?: IKey;
  removalPolicy: RemovalPolicy;
  queueNames: { retry: string; deadLetter: string };
  /** Builds a function of the stage (infra/stack.ts) with extra environment and a timeout. */
  makeFunction: (name: string, entry: string, environment: Record<string, string>, timeout: Duration) => NodejsFunction;
}

export class WebhookDelivery extends Construct {
  readonly deliveryFunction: NodejsFunction;
  readonly retryFunction: NodejsFunction;
  readonly retryQueue: Queue;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    const { table, serviceKey } = props;
    const encryption = props.encryptionKey ? { encryption: QueueEncryption.KMS, encryptionMasterKey: props.encryptionKey } : { encryption: QueueEncryption.SQS_MANAGED };
    const queueBase = { ...encryption, enforceSSL: true, removalPolicy: props.removalPolicy };
    this.deadLetterQueue = new Queue(this, 'DeadLetters', { ...queueBase, queueName: props.queueNames.deadLetter, retentionPeriod: Duration.days(14) });
    this.retryQueue = new Queue(this, 'Retries', {
      ...queueBase,
      queueName: props.queueNames.retry,
      // Six times the function's timeout, as Lambda asks of a queue it reads.
      visibilityTimeout: Duration.seconds(DELIVERY_TIMEOUT.toSeconds() * 6),
      retentionPeriod: Duration.days(14),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: 5 },
    });

    const environment = { SERVER_SECRET_ARN: serviceKey.secretArn, HOOK_RETRY_QUEUE_URL: this.retryQueue.queueUrl };
    this.deliveryFunction = props.makeFunction('hookDelivery', 'functions/hooks/change-feed.ts', environment, DELIVERY_TIMEOUT);
    this.retryFunction = props.makeFunction('hookRetry', 'functions/hooks/retry-queue.ts', environment, DELIVERY_TIMEOUT);

    for (const [f, actions] of [[this.deliveryFunction, DELIVERY_TABLE_ACTIONS], [this.retryFunction, RETRY_TABLE_ACTIONS]] as const) {
      grantTableActions(f, table, actions, props.encryptionKey);
      serviceKey.grantRead(f);
      this.retryQueue.grantSendMessages(f);
    }

    // Only the items the delivery acts on invoke it: event items, keys and deliveries written, keys removed.
    const entities = FilterRule.or('event', 'key', 'delivery');
    this.deliveryFunction.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 25,
        maxBatchingWindow: Duration.seconds(1),
        bisectBatchOnError: true,
        retryAttempts: 5,
        maxRecordAge: Duration.hours(24),
        onFailure: new SqsDlq(this.deadLetterQueue),
        filters: [
          FilterCriteria.filter({ eventName: FilterRule.or('INSERT', 'MODIFY'), dynamodb: { NewImage: { entity: { S: entities } } } }),
          FilterCriteria.filter({ eventName: FilterRule.isEqual('REMOVE'), dynamodb: { OldImage: { entity: { S: FilterRule.isEqual('key') } } } }),
        ],
      }),
    );
    this.retryFunction.addEventSource(new SqsEventSource(this.retryQueue, { batchSize: 10, reportBatchItemFailures: true }));
  }
}
