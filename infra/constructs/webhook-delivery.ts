/**
 * Webhook delivery in the cloud (contract §11), in two stages so that no organisation's receivers
 * hold up another's:
 * - the table's stream feeds the routing function (functions/hooks/change-feed.ts, the handler the
 *   local stage invokes too) through an event source mapping that batches, runs four batches of a
 *   shard side by side (a key's records stay in order), reports the records that failed (partial
 *   batch failures) and bisects, and sends what still fails to the dead-letter queue. Routing
 *   never calls a receiver: it makes deliveries and queues their attempts;
 * - the attempt queue is an SQS standard queue whose messages carry their organisation as
 *   MessageGroupId, which makes it a fair queue: SQS hands out other organisations' messages ahead
 *   of one organisation's backlog. The attempt function (functions/hooks/attempt-queue.ts) runs
 *   each attempt within the organisation's budget of attempts in flight and reports failed
 *   messages alone; retries are the same messages with a delay; after five receives a message
 *   goes to the same dead-letter queue.
 * Each function gets only the table actions its code sends, on the partitions of the entities it
 * touches (leading-keys.ts).
 */
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { FilterCriteria, type Function as LambdaFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { TableAction } from '../../shared/route-def';
import { STREAM_CONSUMERS } from '../stream-consumers';
import { ATTEMPT_ENTITIES, ROUTING_ENTITIES, ROUTING_WRITES } from './leading-keys';
import { grantTableActions } from './table-grants';

/**
 * What routing sends: the key's session (GetItem) and its policies, the APIs and the hooks
 * (BatchGetItem), a large definition's parts (Query), a delivery with its cooldown window (a
 * transaction of Puts).
 */
export const ROUTING_TABLE_ACTIONS: readonly TableAction[] = ['GetItem', 'BatchGetItem', 'Query', 'PutItem'];
/** An attempt claims its organisation's budget and its delivery, reads the delivery and its hook, and records the outcome. */
export const ATTEMPT_TABLE_ACTIONS: readonly TableAction[] = ['GetItem', 'UpdateItem'];

/** A routing batch: at most 25 records, each within its budget of reads and 100 deliveries. */
const ROUTING_TIMEOUT = Duration.seconds(60);
/** An attempt batch: its attempts run side by side, each at most 10 s, plus the claims and the record. */
const ATTEMPT_TIMEOUT = Duration.seconds(30);
/**
 * Attempt invocations at once (of 10 messages each). Each organisation holds at most 10 attempts
 * in flight, so with 50 several organisations at their budget still leave workers for the others;
 * it also bounds what webhooks take of the account's Lambda concurrency.
 */
const ATTEMPT_CONCURRENCY = 50;

export interface WebhookDeliveryProps {
  table: ITableV2;
  serviceKey: ISecret;
  /** cmk=on: the stage's key encrypts both queues; off, SQS's own keys do. */
  encryptionKey?: IKey;
  removalPolicy: RemovalPolicy;
  queueNames: { attempts: string; deadLetter: string };
  /** Builds a function of the stage (infra/stack.ts) with extra environment and a timeout. */
  makeFunction: (name: string, entry: string, environment: Record<string, string>, timeout: Duration) => LambdaFunction;
}

export class WebhookDelivery extends Construct {
  readonly routingFunction: LambdaFunction;
  readonly attemptFunction: LambdaFunction;
  readonly attemptQueue: Queue;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    const { table, serviceKey } = props;
    const encryption = props.encryptionKey
      ? { encryption: QueueEncryption.KMS, encryptionMasterKey: props.encryptionKey }
      : { encryption: QueueEncryption.SQS_MANAGED };
    const queueBase = { ...encryption, enforceSSL: true, removalPolicy: props.removalPolicy };
    this.deadLetterQueue = new Queue(this, 'DeadLetters', { ...queueBase, queueName: props.queueNames.deadLetter, retentionPeriod: Duration.days(14) });
    this.attemptQueue = new Queue(this, 'Attempts', {
      ...queueBase,
      queueName: props.queueNames.attempts,
      // Six times the function's timeout, as Lambda asks of a queue it reads.
      visibilityTimeout: Duration.seconds(ATTEMPT_TIMEOUT.toSeconds() * 6),
      retentionPeriod: Duration.days(14),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: 5 },
    });

    const queueUrl = { HOOK_QUEUE_URL: this.attemptQueue.queueUrl };
    // Routing signs nothing: it never reads the service key.
    this.routingFunction = props.makeFunction('hookRouting', 'functions/hooks/change-feed.ts', queueUrl, ROUTING_TIMEOUT);
    this.attemptFunction = props.makeFunction(
      'hookAttempts',
      'functions/hooks/attempt-queue.ts',
      { ...queueUrl, SERVER_SECRET_ARN: serviceKey.secretArn },
      ATTEMPT_TIMEOUT,
    );
    // Item-level too: only the partitions of the entities each one's code touches.
    // Routing writes deliveries and their cooldown windows only: what else it reads (an organisation's
    // item among them, for whether it is suspended) it may not change.
    grantTableActions(this.routingFunction, table, {
      actions: ROUTING_TABLE_ACTIONS,
      entities: ROUTING_ENTITIES,
      key: props.encryptionKey,
      writesOnly: ROUTING_WRITES,
    });
    grantTableActions(this.attemptFunction, table, { actions: ATTEMPT_TABLE_ACTIONS, entities: ATTEMPT_ENTITIES, key: props.encryptionKey });
    serviceKey.grantRead(this.attemptFunction);
    for (const f of [this.routingFunction, this.attemptFunction]) this.attemptQueue.grantSendMessages(f);

    // Only the items routing acts on invoke it (infra/stream-consumers.ts).
    this.routingFunction.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 25,
        maxBatchingWindow: Duration.seconds(1),
        parallelizationFactor: 4,
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        retryAttempts: 5,
        maxRecordAge: Duration.hours(24),
        onFailure: new SqsDlq(this.deadLetterQueue),
        filters: STREAM_CONSUMERS.webhookRouting.map((p) => FilterCriteria.filter(p)),
      }),
    );
    this.attemptFunction.addEventSource(
      new SqsEventSource(this.attemptQueue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: ATTEMPT_CONCURRENCY }),
    );
  }
}
