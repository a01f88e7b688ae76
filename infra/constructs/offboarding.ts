/**
 * Offboarding in the cloud (contract §9): the table's stream hands every move of a run to the
 * offboarding worker (functions/organisations/offboarding-feed.ts, the handler the local stage
 * invokes too) through an event source mapping of its own, filtered to runs not done. Its grant
 * names what it deletes (leading-keys.ts OFFBOARDING_ENTITIES) and nothing else: it may not touch
 * an idempotency record, a gateway report or another run's consumers' positions. Batches that keep
 * failing go to the webhook delivery's dead-letter queue (whose alarm then fires); DELETE of the
 * organisation again wakes the run.
 */
import { Duration } from 'aws-cdk-lib';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { TableAction } from '../../shared/route-def';
import { STREAM_CONSUMERS } from '../stream-consumers';
import { OFFBOARDING_ENTITIES } from './leading-keys';
import { runMoves, type StreamWorkerProps } from './stream-worker';
import { grantTableActions } from './table-grants';

/**
 * What the worker sends: its run (GetItem, UpdateItem), the objects it finds (Query, BatchGetItem),
 * the deletes and the counts and claims that move with them (DeleteItem, UpdateItem,
 * ConditionCheckItem). Never a Put: it makes nothing.
 */
export const OFFBOARDING_TABLE_ACTIONS: readonly TableAction[] = ['GetItem', 'BatchGetItem', 'Query', 'ConditionCheckItem', 'DeleteItem', 'UpdateItem'];
/** Of the organisation's audit entries, only what deleting them takes: the audit fence still keeps every writer but the audit consumer out. */
const OFFBOARDING_AUDIT_ACTIONS: readonly TableAction[] = ['BatchGetItem', 'DeleteItem'];

export class Offboarding extends Construct {
  readonly worker: LambdaFunction;

  constructor(scope: Construct, id: string, props: StreamWorkerProps) {
    super(scope, id);
    // The worker moves its run after 40 s of work (WORK_MS): the timeout leaves it room for a last transaction.
    this.worker = props.makeFunction('offboarding', 'functions/organisations/offboarding-feed.ts', {}, Duration.seconds(90));
    grantTableActions(this.worker, props.table, { actions: OFFBOARDING_TABLE_ACTIONS, entities: OFFBOARDING_ENTITIES, key: props.encryptionKey });
    grantTableActions(this.worker, props.table, { actions: OFFBOARDING_AUDIT_ACTIONS, entities: ['audit_entry'], key: props.encryptionKey });
    this.worker.addEventSource(runMoves(props, STREAM_CONSUMERS.offboarding));
  }
}
