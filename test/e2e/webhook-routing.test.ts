/**
 * The change feed's routing work per record is bounded (issue 24; docs/reference/limits.md): the delivery
 * handler is invoked in this process with a key's stream record, on data made through the stage,
 * and every DynamoDB call it makes is counted at the client. And it reports the records that
 * failed (partial batch failures) instead of failing the batch.
 */
import { mapLimit } from '../../shared/lib/concurrency';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { expect, it } from 'vitest';
import { handler as changeFeed } from '../../functions/hooks/change-feed';
import { ddb, tableName } from '../../shared/store/db/client';
import { dueDeliveries } from '../../shared/store/hook-deliveries';
import { makeKey, rightsFor, uid } from '../support/fixtures';
import { feedSuite as suite, useWebhookStage } from '../support/webhook-stage';

// The handler runs in this process, against the in-process stage's table; no change feed reads it.
const ws = useWebhookStage({ changeFeed: false });

const calls = new Map<string, number>();
const COUNTER = 'routingWorkCounter';

async function counted<T>(fn: () => Promise<T>): Promise<T> {
  calls.clear();
  ddb().middlewareStack.add(
    (next, context) => async (args) => {
      const name = String(context.commandName).replace(/Command$/, '');
      calls.set(name, (calls.get(name) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: COUNTER },
  );
  try {
    return await fn();
  } finally {
    ddb().middlewareStack.remove(COUNTER);
  }
}

/** The stream record of an update of the key (as DynamoDB Streams hands it to the handler). */
async function keyUpdateRecord(hash: string, sequence: string) {
  const out = await ddb().send(new GetCommand({ TableName: tableName(), Key: { PK: `KEY#${hash}`, SK: 'KEY' } }));
  const item = out.Item!;
  const image = (v: Record<string, unknown>) => marshall(v, { removeUndefinedValues: true }) as never;
  return {
    eventID: uid('record'),
    eventName: 'MODIFY' as const,
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
      SequenceNumber: sequence,
      OldImage: image(item),
      NewImage: image({ ...item, version: Number(item.version) + 1 }),
    },
  };
}

suite('routing work per change-feed record', () => {
  it("a key on 150 APIs, each routing its update to 20 of the organisation's 100 hooks: two batch reads and 100 deliveries, one per hook", async () => {
    const t = await ws.s.tenant();
    const hooks = await ws.hooks(t.key, 100, 'https://hooks.example/x');
    // Made ten at a time: 150 one after another took most of the test's time on a loaded machine.
    const apiIds = await mapLimit(
      Array.from({ length: 150 }, (_, i) => i),
      10,
      async (i) => {
        const id = uid('wide');
        const named = Array.from({ length: 20 }, (_, j) => hooks[(i * 20 + j) % 100]!);
        const r = await ws.s.gw('POST', '/gw/apis', {
          api_id: id,
          name: id,
          org_id: t.orgId,
          proxy: { listen_path: `/${id}/`, target_url: 'http://upstream.example' },
          event_handlers: {
            events: { TokenUpdated: named.map((h) => ({ handler_name: 'eh_web_hook_handler', handler_meta: { webhook_id: h, event_timeout: 0 } })) },
          },
        });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        return id;
      },
    );
    const { hash } = await makeKey(ws.s, { org_id: t.orgId, access_rights: rightsFor(...apiIds) });
    const record = await keyUpdateRecord(hash, '100');

    const answer = await counted(() => changeFeed({ Records: [record] } as never));
    expect(answer).toEqual({ batchItemFailures: [] });
    // Routed one API at a time, this record would make 150 Queries, 3,000 GetItems and 3,000 transactions.
    // The one GetItem: whether the organisation is active (once per organisation and CACHE_SECONDS).
    expect(Object.fromEntries(calls)).toEqual({ BatchGetItem: 2, GetItem: 1, PutItem: 100 });

    const made = (await dueDeliveries(Date.now() + 60_000, 1000)).filter((d) => d.org_id === t.orgId);
    expect(made).toHaveLength(100);
    expect(new Set(made.map((d) => d.hook_id))).toEqual(new Set(hooks));

    // Handed over again (at least once), the record makes no second delivery.
    await changeFeed({ Records: [record] } as never);
    expect((await dueDeliveries(Date.now() + 60_000, 1000)).filter((d) => d.org_id === t.orgId)).toHaveLength(100);
  }, 240_000);

  it('a record that fails is reported by its sequence number; the others of the batch are taken', async () => {
    // No attempt queue runs in this process (no change feed, no HOOK_QUEUE_URL): a delivery record cannot be queued.
    const t = await ws.s.tenant();
    const { hash } = await makeKey(ws.s, { org_id: t.orgId, access_rights: rightsFor(await apiOf(t.orgId)) });
    const delivery = {
      eventID: uid('record'),
      eventName: 'INSERT' as const,
      dynamodb: {
        SequenceNumber: '201',
        NewImage: marshall({ entity: 'delivery', status: 'pending', org_id: t.orgId, hook_id: 'h', id: 'd', queued: 1 }) as never,
      },
    };
    const answer = await changeFeed({ Records: [await keyUpdateRecord(hash, '200'), delivery] } as never);
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: '201' }] });
  });
});

async function apiOf(orgId: string): Promise<string> {
  const id = uid('plain');
  const r = await ws.s.gw('POST', '/gw/apis', {
    api_id: id,
    name: id,
    org_id: orgId,
    proxy: { listen_path: `/${id}/`, target_url: 'http://upstream.example' },
  });
  expect(r.status).toBe(200);
  return id;
}
