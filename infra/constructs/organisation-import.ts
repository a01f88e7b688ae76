/**
 * Imports finished in the background (contract §9): the table's stream hands every move of an
 * import run to the import worker (functions/organisations/import-feed.ts, the handler the local
 * stage invokes too) through an event source mapping of its own, filtered to runs under way. Its
 * grant names what an import writes (the import route's own entities) and its run; on a failed run
 * it starts the organisation's offboarding, which those include. Batches that keep failing go to the
 * webhook delivery's dead-letter queue (whose alarm then fires).
 */
import { Duration } from 'aws-cdk-lib';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { TableAction } from '../../shared/route-def';
import { routes as routeTable } from '../../shared/routes';
import { STREAM_CONSUMERS } from '../stream-consumers';
import { runMoves, type StreamWorkerProps } from './stream-worker';
import { grantTableActions } from './table-grants';

/** What the worker sends: the import's own writes and reads, its run's moves, and the deletes of its parts. */
export const IMPORT_WORKER_TABLE_ACTIONS: readonly TableAction[] = routeTable.organisationsImport.tableActions ?? [];
/** What it touches: what an import's request does (which hands the rest over as a run with its parts). */
const IMPORT_WORKER_ENTITIES: readonly string[] = routeTable.organisationsImport.tableEntities ?? [];

export class OrganisationImport extends Construct {
  readonly worker: LambdaFunction;

  constructor(scope: Construct, id: string, props: StreamWorkerProps) {
    super(scope, id);
    // A worker may first wait out a cut-off request's hold (30 s from the request's start), then works 40 s (WORK_MS) and a last stretch.
    this.worker = props.makeFunction('import', 'functions/organisations/import-feed.ts', {}, Duration.seconds(90));
    grantTableActions(this.worker, props.table, { actions: IMPORT_WORKER_TABLE_ACTIONS, entities: IMPORT_WORKER_ENTITIES, key: props.encryptionKey });
    this.worker.addEventSource(runMoves(props, STREAM_CONSUMERS.imports));
  }
}
