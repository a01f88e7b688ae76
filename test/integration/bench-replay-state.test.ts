/**
 * The per-route bench's put-back (bench/lib/replay-state.ts): its floor replays a route's writes
 * onto the state the route met. A create's id must be free again and a counter back where it was,
 * or the floor measures a refused write (cheaper than the route's committed one); an item the
 * put-back cannot prove it may delete stays as the route left it.
 */
import { DynamoDBClient, GetItemCommand, PutItemCommand, TransactWriteItemsCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DynamoCall } from '../../infra/local/emulator/aws-endpoint';
import { putBack, readBefore, writtenBy } from '../../bench/lib/replay-state';
import { ddb } from '../../shared/store/db/client';
import { workerDynamoEndpoint } from '../support/dynamo-endpoint';
import { useTestTable } from '../support/table';

let table = '';
let client: DynamoDBClient;
beforeAll(async () => {
  table = await useTestTable();
  client = new DynamoDBClient({ endpoint: workerDynamoEndpoint(), region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
});

const S = (s: string) => ({ S: s });
const key = (pk: string) => ({ PK: S(pk), SK: S('ITEM') });
const counter = async (pk: string) => (await client.send(new GetItemCommand({ TableName: table, Key: key(pk), ConsistentRead: true }))).Item;

/** Sends a write as a route would and records it as the emulator hears it. */
async function sent(operation: 'TransactWriteItems' | 'UpdateItem', input: object, status = 200): Promise<DynamoCall> {
  const full = { TableName: table, ...input };
  if (status === 200 && operation === 'UpdateItem') await client.send(new UpdateItemCommand(full as never));
  if (status === 200 && operation === 'TransactWriteItems') await client.send(new TransactWriteItemsCommand(input as never));
  return { logicalId: 'Route', operation, body: JSON.stringify(full), startedMs: 0, endedMs: 1, status };
}

const create = (pk: string) => ({
  TransactItems: [
    { Put: { TableName: table, Item: { ...key(pk), body: S('new') }, ConditionExpression: 'attribute_not_exists(PK)' } },
    { Update: { TableName: table, Key: key('COUNT'), UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': { N: '1' } } } },
  ],
});

describe('the per-route floor replays onto what the route met', () => {
  it('puts back the items read before and deletes the ones the route created', async () => {
    await client.send(new PutItemCommand({ TableName: table, Item: { ...key('COUNT'), n: { N: '5' } } }));
    const first = writtenBy([await sent('TransactWriteItems', create('HOOK#1'))]);
    expect(first).toEqual([
      { table, key: key('HOOK#1'), created: true },
      { table, key: key('COUNT'), created: false },
    ]);
    // The next call is read before it by what the last one wrote, then makes a new item and counts it.
    const before = await readBefore(ddb(), first);
    const wrote = writtenBy([
      await sent('TransactWriteItems', create('HOOK#2')),
      await sent('UpdateItem', { Key: key('OTHER'), UpdateExpression: 'SET x = :x', ExpressionAttributeValues: { ':x': S('1') } }, 400),
    ]);
    expect((await counter('COUNT'))?.n).toEqual({ N: '7' });
    await putBack(ddb(), before, wrote);
    expect((await counter('COUNT'))?.n).toEqual({ N: '6' });
    expect(await counter('HOOK#2')).toBeUndefined();
    expect((await counter('HOOK#1'))?.body).toEqual(S('new'));
    // So the replay of the same calls commits, as the route's did.
    await client.send(new TransactWriteItemsCommand(create('HOOK#2') as never));
    expect((await counter('COUNT'))?.n).toEqual({ N: '7' });
  });

  it('leaves an item it neither read before nor saw created', async () => {
    const wrote = writtenBy([await sent('UpdateItem', { Key: key('UNSEEN'), UpdateExpression: 'SET x = :x', ExpressionAttributeValues: { ':x': S('1') } })]);
    expect(wrote).toEqual([{ table, key: key('UNSEEN'), created: false }]);
    await putBack(ddb(), new Map(), wrote);
    expect((await counter('UNSEEN'))?.x).toEqual(S('1'));
  });
});
