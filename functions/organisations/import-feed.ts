import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { observed } from '../../shared/observability/invocation';
import { workOnImports, type FeedRecord } from '../../shared/services/import-runs';

/** A worker's time on its runs: well inside the function's timeout (infra/constructs/organisation-import.ts), so it always moves the run before it ends. */
export const WORK_MS = 40_000;

/**
 * The import worker (contract §9): handed every move of an import run by the table's stream (its
 * own event source mapping, filtered to runs under way; the local change feed on the local stage),
 * it writes on from where each run stands, moving it after each stretch, which hands it over again.
 * A crash or a timeout fails the batch, which is handed over again: the run goes on from its last move.
 */
export const handler = observed('import', async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  await workOnImports(event.Records as FeedRecord[], WORK_MS);
  return { batchItemFailures: [] };
});
