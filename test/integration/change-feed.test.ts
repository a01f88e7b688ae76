/**
 * The local change feed's reading of the table's stream (infra/local/change-feed.ts), on DynamoDB
 * Local: each consumer is handed the records the cloud's event source filters let through
 * (infra/stream-consumers.ts) and nothing else, so the counter write of every check reaches the
 * usage consumer alone, and only once its counter carries a tally.
 */
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamConsumer } from '../../infra/local/change-feed';
import { passesFilters, type Pattern } from '../../infra/local/emulator/event-filter';
import { STREAM_CONSUMERS } from '../../infra/stream-consumers';
import { ddb, tableName } from '../../shared/store/db/client';
import { counterOf } from '../../shared/store/keys';
import { spend } from '../../shared/store/live-quota/spend';
import { workerDynamoEndpoint } from '../support/dynamo-endpoint';
import { uid } from '../support/fixtures';
import { useTestTable } from '../support/table';

let client: DynamoDBStreamsClient;
beforeAll(async () => {
  await useTestTable();
  client = new DynamoDBStreamsClient({ endpoint: workerDynamoEndpoint(), region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
});
afterAll(() => client?.destroy());

const NOW = Math.floor(Date.now() / 1000);

/** Reads the whole stream once as a consumer with `filters`; answers the records its handler was handed. */
async function handedTo(filters: readonly Pattern[]): Promise<DynamoDBRecord[]> {
  const handed: DynamoDBRecord[] = [];
  const read = streamConsumer(client, {
    tableName: tableName(),
    name: 'test',
    handler: async (event) => {
      handed.push(...event.Records);
      return { batchItemFailures: [] };
    },
    takes: (r) => passesFilters(filters, r),
    log: () => undefined,
    stopped: () => false,
  });
  await read();
  return handed;
}

const keysOf = (records: DynamoDBRecord[]) => records.map((r) => `${r.dynamodb?.Keys?.PK?.S}|${r.dynamodb?.Keys?.SK?.S}`);

describe('the local change feed', () => {
  it("hands a consumer only what the cloud's filters let through: a check's counter write to the usage figures alone", async () => {
    const tallied = counterOf(uid('tallied'), '');
    const untallied = counterOf(uid('untallied'), '');
    const limits = { max: 10, renewalRate: 3600, rate: null };
    // A check that counted its request, and a counter write that counted none.
    expect((await spend(tallied, { ...limits, tally: { org_id: 'o1', api_id: 'a1', day: '2026-11-29' } }, NOW)).ok).toBe(true);
    expect((await spend(untallied, limits, NOW)).ok).toBe(true);
    // An item the webhook routing and the audit trail act on.
    const key = { PK: `KEY#${uid('k')}`, SK: 'KEY' };
    await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...key, entity: 'key' } }));

    const head = (ref: typeof tallied) => `${ref.head.PK}|${ref.head.SK}`;
    expect(keysOf(await handedTo(STREAM_CONSUMERS.webhookRouting))).toEqual([`${key.PK}|${key.SK}`]);
    expect(keysOf(await handedTo(STREAM_CONSUMERS.audit))).toEqual([`${key.PK}|${key.SK}`]);
    expect(keysOf(await handedTo(STREAM_CONSUMERS.usage))).toEqual([head(tallied)]);
    expect(await handedTo(STREAM_CONSUMERS.offboarding)).toEqual([]);
  });
});
