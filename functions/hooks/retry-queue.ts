import type { SQSEvent, SQSBatchResponse } from 'aws-lambda';
import { retryDelivery, type DueRef } from '../../shared/services/deliveries';

/**
 * A webhook retry that came due through the retry queue (cloud only; contract §11). Each message
 * names one delivery; a message that fails is reported alone, so SQS hands back only that one
 * (and moves it to the dead-letter queue after its receive limit).
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    event.Records.map(async (m) => {
      try {
        await retryDelivery(JSON.parse(m.body) as DueRef);
      } catch {
        failures.push({ itemIdentifier: m.messageId });
      }
    }),
  );
  return { batchItemFailures: failures };
};
