import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { observed } from '../../shared/observability/invocation';
import { workOnRuns, type FeedRecord } from '../../shared/services/offboarding';

/** A worker's time on its runs: well inside the function's timeout (infra/constructs/offboarding.ts), so it always moves the run before it ends. */
export const WORK_MS = 40_000;

/**
 * The offboarding worker (contract §9): handed every move of a run by the table's stream (its own
 * event source mapping, filtered to runs; the local change feed on the local stage), it works on
 * each run the records name that is not done, then moves it, which hands it over again. A crash or
 * a timeout fails the batch, which is handed over again: the run goes on from its last transaction.
 */
export const handler = observed('offboarding', async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  await workOnRuns(event.Records as FeedRecord[], WORK_MS);
  return { batchItemFailures: [] };
});
