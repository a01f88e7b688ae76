/**
 * The local stages' reading of the table's stream (infra/local/change-feed.ts, stream-reader.ts),
 * on DynamoDB Local: each consumer is handed the records the cloud's event source filters let
 * through (infra/stream-consumers.ts) and nothing else, so the counter write of every check
 * reaches the usage consumer alone; each record is read from DynamoDB Local once for every
 * consumer, and handed over as Lambda hands it.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { streamConsumer } from '../../infra/local/change-feed';
import type { Pattern } from '../../infra/local/emulator/event-filter';
import { streamReader, type StreamReader } from '../../infra/local/stream-reader';
import { STREAM_CONSUMERS } from '../../infra/stream-consumers';
import { ddb, tableName } from '../../shared/store/db/client';
import { counterOf } from '../../shared/store/keys';
import { spend } from '../../shared/store/live-quota/spend';
import { workerDynamoEndpoint } from '../support/dynamo-endpoint';
import { uid } from '../support/fixtures';
import { useTestTable } from '../support/table';

beforeAll(async () => {
  await useTestTable();
});

const NOW = Math.floor(Date.now() / 1000);

/** A consumer reading through `reader` with `filters`: its step, and the records its handler was handed. */
function consumer(reader: StreamReader, name: string, filters: readonly Pattern[], fail?: () => boolean, checkpointFile?: string) {
  // A position kept after passed-over pages at most once a minute: no read of the test takes that long.
  const handed: DynamoDBRecord[] = [];
  const read = streamConsumer(reader, {
    tableName: tableName(),
    ...(checkpointFile ? { checkpointFile, passedOverSaveMs: 60_000 } : {}),
    name,
    handler: async (event) => {
      if (fail?.()) throw new Error('refused');
      handed.push(...event.Records);
      return { batchItemFailures: [] };
    },
    filters,
    log: () => undefined,
    stopped: () => false,
  });
  return { read, handed };
}

/** Between a reader and DynamoDB Local: counts the stream records DynamoDB Local answered GetRecords with. */
async function countingProxy(target: string) {
  let records = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const headers = Object.fromEntries(['content-type', 'x-amz-target', 'authorization'].map((h) => [h, String(req.headers[h])]));
      const answer = await fetch(target, { method: 'POST', headers, body: Buffer.concat(chunks) });
      const text = await answer.text();
      if (headers['x-amz-target']!.endsWith('.GetRecords') && answer.ok) records += (JSON.parse(text) as { Records: unknown[] }).Records.length;
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    records: () => records,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const keysOf = (records: DynamoDBRecord[]) => records.map((r) => `${r.dynamodb?.Keys?.PK?.S}|${r.dynamodb?.Keys?.SK?.S}`);

/** Writes a key item (what the webhook routing and the audit trail act on); answers its PK|SK. */
async function writeKey(more: Record<string, unknown> = {}): Promise<string> {
  const key = { PK: `KEY#${uid('k')}`, SK: 'KEY' };
  await ddb().send(new PutCommand({ TableName: tableName(), Item: { ...key, entity: 'key', ...more } }));
  return `${key.PK}|${key.SK}`;
}

describe('the local change feed', () => {
  it("hands a consumer only what the cloud's filters let through: a check's counter write to the usage figures alone", async () => {
    const tallied = counterOf(uid('tallied'), '');
    const untallied = counterOf(uid('untallied'), '');
    const limits = { max: 10, renewalRate: 3600, rate: null };
    // A check that counted its request, and a counter write that counted none.
    expect((await spend(tallied, { ...limits, tally: { org_id: 'o1', api_id: 'a1', day: '2026-11-29' } }, NOW)).ok).toBe(true);
    expect((await spend(untallied, limits, NOW)).ok).toBe(true);
    const key = await writeKey();

    const reader = streamReader(workerDynamoEndpoint());
    try {
      const feed = {
        routing: consumer(reader, 'routing', STREAM_CONSUMERS.webhookRouting),
        audit: consumer(reader, 'audit', STREAM_CONSUMERS.audit),
        usage: consumer(reader, 'usage', STREAM_CONSUMERS.usage),
        offboarding: consumer(reader, 'offboarding', STREAM_CONSUMERS.offboarding),
      };
      for (const c of Object.values(feed)) await c.read();
      expect(keysOf(feed.routing.handed)).toEqual([key]);
      expect(keysOf(feed.audit.handed)).toEqual([key]);
      expect(keysOf(feed.usage.handed)).toEqual([`${tallied.head.PK}|${tallied.head.SK}`]);
      expect(feed.offboarding.handed).toEqual([]);
    } finally {
      reader.close();
    }
  });

  it('reads each record from DynamoDB Local once for all its consumers, each keeping its own position', async () => {
    const proxy = await countingProxy(workerDynamoEndpoint());
    const reader = streamReader(proxy.url);
    try {
      const all = [{ eventName: ['INSERT', 'MODIFY', 'REMOVE'] }];
      const five = Array.from({ length: 5 }, (_, i) => consumer(reader, `c${i}`, all));
      // Each starts from the stream's oldest record, as a new mapping does.
      for (const c of five) await c.read();
      const before = proxy.records();
      expect(five.map((c) => c.handed.length)).toEqual(Array(5).fill(before));
      const written = [await writeKey(), await writeKey(), await writeKey()];
      for (const c of five) await c.read();
      expect(proxy.records() - before).toBe(3);
      for (const c of five) expect(keysOf(c.handed).slice(-3)).toEqual(written);
    } finally {
      reader.close();
      await proxy.close();
    }
  });

  it('hands a failed batch over again while the others read on, and a consumer that starts late every record from its own position', async () => {
    const reader = streamReader(workerDynamoEndpoint());
    try {
      const all = [{ eventName: ['INSERT', 'MODIFY', 'REMOVE'] }];
      let refusing = true;
      const steady = consumer(reader, 'steady', all);
      const failing = consumer(reader, 'failing', all, () => refusing);
      await steady.read();
      await failing.read();
      const written = [await writeKey(), await writeKey()];
      await steady.read();
      await failing.read();
      expect(keysOf(steady.handed).slice(-2)).toEqual(written);
      refusing = false;
      await failing.read();
      expect(keysOf(failing.handed)).toEqual(keysOf(steady.handed));
      // Both have passed every record read so far, so the reader keeps none of them: a consumer
      // starting now reads alone from the oldest record, then with the others.
      await steady.read();
      await failing.read();
      const late = consumer(reader, 'late', all);
      await late.read();
      expect(keysOf(late.handed)).toEqual(keysOf(steady.handed));
    } finally {
      reader.close();
    }
  });

  it('keeps its position at once after a page it handed over, and after pages its filters passed over whole only now and then', async () => {
    const reader = streamReader(workerDynamoEndpoint());
    const file = join(mkdtempSync(join(tmpdir(), 'feed-')), 'position.json');
    const saved = () => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
    try {
      // Only keys whose entity is "wanted" reach the handler; everything else is passed over.
      const c = consumer(reader, 'positions', [{ dynamodb: { NewImage: { entity: { S: ['wanted'] } } } }], undefined, file);
      await c.read();
      const start = JSON.stringify(saved());
      await writeKey();
      await c.read();
      // The first pages passed over are kept (nothing was kept yet), the next, so soon after, are not.
      const afterFirst = JSON.stringify(saved());
      await writeKey();
      await c.read();
      expect(JSON.stringify(saved())).toBe(afterFirst);
      // A record handed over moves the kept position at once.
      const handedKey = await writeKey({ entity: 'wanted' });
      await c.read();
      expect(keysOf(c.handed)).toEqual([handedKey]);
      expect(JSON.stringify(saved())).not.toBe(afterFirst);
      expect(JSON.stringify(saved())).not.toBe(start);
    } finally {
      reader.close();
    }
  });

  it('hands a record over as Lambda does: binary attributes as base64 text, the time in whole seconds, the stream named', async () => {
    const key = await writeKey({ body: new Uint8Array([1, 2, 3]) });
    const reader = streamReader(workerDynamoEndpoint());
    try {
      const routing = consumer(reader, 'routing', STREAM_CONSUMERS.webhookRouting);
      await routing.read();
      const record = routing.handed.find((r) => keysOf([r])[0] === key)!;
      expect(record.dynamodb?.NewImage?.body).toEqual({ B: 'AQID' });
      expect(Number.isInteger(record.dynamodb?.ApproximateCreationDateTime)).toBe(true);
      expect(record).toMatchObject({
        eventSource: 'aws:dynamodb',
        eventName: 'INSERT',
        eventSourceARN: expect.stringContaining(`table/${tableName()}/stream/`),
      });
    } finally {
      reader.close();
    }
  });
});
