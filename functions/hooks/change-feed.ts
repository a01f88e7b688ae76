import type { DynamoDBStreamEvent } from 'aws-lambda';
import { processChangeFeed, type FeedRecord } from '../../shared/services/deliveries';

/**
 * The change feed's one consumer (contract §11): the table's stream in the cloud (event source
 * mapping), DynamoDB Local's stream on the local stage (infra/local/change-feed.ts), the same
 * DynamoDBStreamEvent either way. A storage failure throws, so the batch is handed over again.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  await processChangeFeed(event.Records as FeedRecord[]);
};
