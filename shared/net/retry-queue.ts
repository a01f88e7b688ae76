/**
 * The cloud's retry queue (contract §11): a failed delivery is sent back to itself through SQS
 * with a delay. SQS delays a message at most 15 minutes, so a longer wait is the same message
 * sent again when it arrives early (the retry function does that). The local stage has no queue:
 * its stand-in reads due deliveries from the table (infra/local/change-feed.ts), so nothing is sent
 * when no queue is configured.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';

/** SQS's longest message delay. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

export interface RetryMessage {
  org_id: string;
  hook_id: string;
  id: string;
}

let client: Promise<SQSClient> | undefined;

async function sqs(): Promise<SQSClient> {
  client ??= import('@aws-sdk/client-sqs').then(({ SQSClient: C }) => new C({}));
  return client;
}

/** Queues `message` to arrive in `delaySeconds` (capped at SQS's 15 minutes); nothing without a queue. */
export async function scheduleRetry(queueUrl: string | undefined, message: RetryMessage, delaySeconds: number): Promise<void> {
  if (!queueUrl) return;
  const { SendMessageCommand } = await import('@aws-sdk/client-sqs');
  const delay = Math.max(0, Math.min(MAX_QUEUE_DELAY_SECONDS, Math.ceil(delaySeconds)));
  await (await sqs()).send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message), DelaySeconds: delay }));
}
