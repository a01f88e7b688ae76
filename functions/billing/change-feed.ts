import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { observed } from '../../shared/observability/invocation';
import { countUsage, type FeedRecord } from '../../shared/services/usage-count';

/**
 * The change feed's usage consumer (contract §14): the table's stream in the cloud (an event
 * source mapping filtered to counter writes and refusal tallies), DynamoDB Local's on the local
 * stage (infra/local/change-feed.ts, with a position of its own). The only writer of the usage
 * figures. A batch that fails is handed over again whole; the positions kept with the figures make
 * every record count once.
 */
export const handler = observed('usage-count', async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  await countUsage(event.Records as FeedRecord[]);
  return { batchItemFailures: [] };
});
