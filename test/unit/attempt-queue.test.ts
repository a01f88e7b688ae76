/**
 * The cloud's attempt queue (shared/net/attempt-queue.ts): every message carries its organisation
 * as MessageGroupId (what makes the standard queue an SQS fair queue), ten to a call, with the
 * delay capped at SQS's 15 minutes; entries SQS did not take come back to the caller.
 */
import { type SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { enqueueAttempts, useInProcessQueue } from '../../shared/net/attempt-queue';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('enqueueAttempts on SQS', () => {
  it('groups each message by its organisation, ten to a call, and answers the entries SQS failed', async () => {
    const sent: SendMessageBatchCommand['input'][] = [];
    vi.spyOn(SQSClient.prototype, 'send').mockImplementation(async (command: unknown) => {
      const input = (command as SendMessageBatchCommand).input;
      sent.push(input);
      return { Successful: [], Failed: sent.length === 2 ? [{ Id: '1', SenderFault: false, Code: 'InternalError' }] : [] } as never;
    });
    const messages = Array.from({ length: 12 }, (_, i) => ({ org_id: i % 2 ? 'org-b' : 'org-a', hook_id: `h${i}`, id: `d${i}` }));
    const failed = await enqueueAttempts('https://sqs.example/queue', messages, 3600);
    expect(sent.map((b) => b.Entries!.length)).toEqual([10, 2]);
    for (const [i, entry] of [...sent[0]!.Entries!, ...sent[1]!.Entries!].entries()) {
      expect(entry).toMatchObject({ MessageGroupId: messages[i]!.org_id, DelaySeconds: 900 });
      expect(JSON.parse(entry.MessageBody!)).toEqual(messages[i]);
    }
    expect(sent[0]!.QueueUrl).toBe('https://sqs.example/queue');
    expect(failed).toEqual([messages[11]]);
  });

  it('without a queue URL and without a local queue it refuses, so the caller hands the record over again', async () => {
    await expect(enqueueAttempts(undefined, [{ org_id: 'o', hook_id: 'h', id: 'd' }])).rejects.toThrow(/no webhook attempt queue/);
  });

  it('a stopped local queue leaves none behind: messages are refused again, and a later queue keeps its own', async () => {
    const first: string[] = [];
    const second: string[] = [];
    const releaseFirst = useInProcessQueue((m) => first.push(m.id));
    await enqueueAttempts(undefined, [{ org_id: 'o', hook_id: 'h', id: 'd1' }]);
    releaseFirst();
    await expect(enqueueAttempts(undefined, [{ org_id: 'o', hook_id: 'h', id: 'd2' }])).rejects.toThrow(/no webhook attempt queue/);

    const releaseSecond = useInProcessQueue((m) => second.push(m.id));
    releaseFirst(); // an older queue stopping again does not take the newer one's place away
    await enqueueAttempts(undefined, [{ org_id: 'o', hook_id: 'h', id: 'd3' }]);
    releaseSecond();
    expect([first, second]).toEqual([['d1'], ['d3']]);
  });
});
