import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { observed } from '../../shared/observability/invocation';
import { runQueuedAttempt, type AttemptMessage } from '../../shared/services/delivery-attempts';

/**
 * Webhook attempts from the attempt queue (cloud only; contract §11): each message names one
 * delivery, attempted within its organisation's budget of attempts in flight. A message that
 * fails is reported alone, so SQS hands back only that one (and moves it to the dead-letter
 * queue after its receive limit).
 */
export const handler = observed('attempt-queue', async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    event.Records.map(async (m) => {
      try {
        await runQueuedAttempt(JSON.parse(m.body) as AttemptMessage);
      } catch {
        failures.push({ itemIdentifier: m.messageId });
      }
    }),
  );
  return { batchItemFailures: failures };
});
