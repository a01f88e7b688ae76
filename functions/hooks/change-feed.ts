import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { observed } from '../../shared/observability/invocation';
import { processChangeFeed, type FeedRecord } from '../../shared/services/delivery-routing';

/**
 * The change feed's one consumer (contract §11): the table's stream in the cloud (event source
 * mapping), DynamoDB Local's stream on the local stage (infra/local/change-feed.ts), the same
 * DynamoDBStreamEvent either way. It routes and enqueues only. Records that failed are reported
 * (partial batch failures), so the feed resumes from the first of them.
 */
export const handler = observed('change-feed', async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const failed = await processChangeFeed(event.Records as FeedRecord[]);
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
});
