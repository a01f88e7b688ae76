import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { observed } from '../../shared/observability/invocation';
import { recordAuditTrail, type FeedRecord } from '../../shared/services/audit';

/**
 * The change feed's audit consumer (contract §12): the table's stream in the cloud (its own event
 * source mapping, filtered to configuration objects and deletion records' objects), DynamoDB
 * Local's stream on the local stage (infra/local/change-feed.ts, with a position of its own). The
 * only writer of audit entries. Records that failed are reported (partial batch failures), so the
 * feed resumes from the first of them; entries already made are not made again.
 */
export const handler = observed('audit-trail', async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const failed = await recordAuditTrail(event.Records as FeedRecord[]);
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
});
