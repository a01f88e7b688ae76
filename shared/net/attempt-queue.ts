/**
 * The webhook attempt queue (contract §11): every attempt of a delivery (its first, a retry, a
 * redeliver's) is a message naming the delivery, so the change feed only routes and enqueues and
 * never waits on a receiver.
 *
 * In the cloud it is one SQS standard queue, and each message carries its organisation as
 * `MessageGroupId`: that makes it an SQS fair queue, which hands other organisations' messages
 * out ahead of one organisation's backlog (AWS's answer to noisy neighbours). SQS delays a
 * message at most 15 minutes, so a longer wait is the same message sent again when it arrives
 * early. On the local stage the queue is in the process (infra/local/attempt-queue.ts), which
 * registers itself here; it takes messages due now, and its stand-in for delayed messages is the
 * table's due index, which also finds what a stopped stage left.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { traced } from '../observability/tracer';

/** SQS's longest message delay. */
const MAX_QUEUE_DELAY_SECONDS = 900;

export interface AttemptMessage {
  org_id: string;
  hook_id: string;
  id: string;
  /** How often this attempt was put back because its organisation had no attempt to spare. */
  deferrals?: number;
}

let client: Promise<SQSClient> | undefined;
let inProcess: ((m: AttemptMessage) => void) | undefined;

async function sqs(): Promise<SQSClient> {
  client ??= import('@aws-sdk/client-sqs').then(({ SQSClient: C }) => traced(new C({})));
  return client;
}

/**
 * The local stage's queue takes the messages from now on; answers how to stop handing it any,
 * once that queue stops (a stopped change feed leaves no queue behind in its process).
 */
export function useInProcessQueue(take: (m: AttemptMessage) => void): () => void {
  inProcess = take;
  return () => {
    if (inProcess === take) inProcess = undefined;
  };
}

/**
 * Queues `messages` to arrive in `delaySeconds` (capped at SQS's 15 minutes), ten to a call;
 * answers those the queue did not take (the caller fails their source, so they are sent again).
 */
export async function enqueueAttempts(queueUrl: string | undefined, messages: readonly AttemptMessage[], delaySeconds = 0): Promise<AttemptMessage[]> {
  if (!queueUrl) {
    if (!inProcess) throw new Error('no webhook attempt queue: HOOK_QUEUE_URL is unset and no local queue runs');
    // The due index brings delayed attempts back on the local stage.
    if (delaySeconds <= 0) messages.forEach(inProcess);
    return [];
  }
  const { SendMessageBatchCommand } = await import('@aws-sdk/client-sqs');
  const delay = Math.max(0, Math.min(MAX_QUEUE_DELAY_SECONDS, Math.ceil(delaySeconds)));
  const failed: AttemptMessage[] = [];
  for (let i = 0; i < messages.length; i += 10) {
    const batch = messages.slice(i, i + 10);
    const out = await (await sqs()).send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: batch.map((m, n) => ({ Id: String(n), MessageBody: JSON.stringify(m), MessageGroupId: m.org_id, DelaySeconds: delay })),
      }),
    );
    for (const f of out.Failed ?? []) failed.push(batch[Number(f.Id)]!);
  }
  return failed;
}
