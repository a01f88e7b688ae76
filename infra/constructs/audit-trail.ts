/**
 * The audit trail in the cloud (contract §12): the table's stream feeds the audit consumer
 * (functions/audit/change-feed.ts, the handler the local stage invokes too) through an event
 * source mapping of its own, filtered to the configuration objects it follows (a REMOVE by its
 * old image). It is the only function granted the writes of audit entries: one conditional
 * PutItem per change, and a Query of the deletion records a delete wrote, on those two entities'
 * partitions only (leading-keys.ts); every other function's grant leaves out the entries' partition. Batches that keep
 * failing go to the webhook delivery's dead-letter queue (whose alarm then fires).
 */
import { Duration } from 'aws-cdk-lib';
import { FilterCriteria, type Function as LambdaFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import type { TableAction } from '../../shared/route-def';
import { STREAM_CONSUMERS } from '../stream-consumers';
import { AUDIT_CONSUMER_ENTITIES, OFFBOARDING_READ } from './leading-keys';
import type { StreamWorkerProps } from './stream-worker';
import { grantTableActions } from './table-grants';

/** What the consumer sends: the deletion records of a delete (Query) and one conditional Put per entry (and OFFBOARDING_READ). */
export const AUDIT_TABLE_ACTIONS: readonly TableAction[] = ['Query', 'PutItem'];

export interface AuditTrailProps extends StreamWorkerProps {
  retentionDays: number;
}

export class AuditTrail extends Construct {
  readonly consumer: LambdaFunction;

  constructor(scope: Construct, id: string, props: AuditTrailProps) {
    super(scope, id);
    this.consumer = props.makeFunction(
      'auditTrail',
      'functions/audit/change-feed.ts',
      { AUDIT_RETENTION_DAYS: String(props.retentionDays) },
      Duration.seconds(60),
    );
    grantTableActions(this.consumer, props.table, { actions: AUDIT_TABLE_ACTIONS, entities: AUDIT_CONSUMER_ENTITIES, key: props.encryptionKey });
    grantTableActions(this.consumer, props.table, { ...OFFBOARDING_READ, key: props.encryptionKey });
    this.consumer.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(1),
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        retryAttempts: 10,
        maxRecordAge: Duration.hours(24),
        onFailure: new SqsDlq(props.deadLetterQueue),
        filters: STREAM_CONSUMERS.audit.map((p) => FilterCriteria.filter(p)),
      }),
    );
  }
}
