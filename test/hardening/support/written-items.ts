/**
 * What requests wrote, read back from the table itself without scanning it: the table's stream
 * names the keys written since the last look, and one consistent read of those keys gives what is
 * stored under them now. A file that checks thousands of accepted requests then reads a few items
 * per request instead of the whole table, which grows with every case it sends.
 */
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, ListStreamsCommand } from '@aws-sdk/client-dynamodb-streams';
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { config } from '../../../shared/config';
import { ddb } from '../../../shared/store/db/client';
import { missingEntries } from './snapshot';

type Key = { PK: string; SK: string };

export interface WrittenItems {
  /** The items stored now under every key written since the last call (or since `followWrites`). */
  next(): Promise<Array<Record<string, unknown>>>;
}

/** Starts following the table's writes from now on. */
export async function followWrites(table: string): Promise<WrittenItems> {
  const streams = new DynamoDBStreamsClient({
    endpoint: config().dynamoEndpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const arn = (await streams.send(new ListStreamsCommand({ TableName: table }))).Streams?.[0]?.StreamArn;
  if (!arn) throw new Error(`table ${table} has no stream`);
  /** Per shard: where the next read starts; null once a closed shard is read to its end. */
  const iterators = new Map<string, string | null>();
  const iterator = async (shardId: string, type: 'LATEST' | 'TRIM_HORIZON') =>
    (await streams.send(new GetShardIteratorCommand({ StreamArn: arn, ShardId: shardId, ShardIteratorType: type }))).ShardIterator ?? null;
  const shards = async () => (await streams.send(new DescribeStreamCommand({ StreamArn: arn }))).StreamDescription?.Shards ?? [];
  for (const s of await shards()) if (s.ShardId) iterators.set(s.ShardId, await iterator(s.ShardId, 'LATEST'));

  async function writtenKeys(): Promise<Key[]> {
    // A shard that opened since the last look holds only writes made since: read it from its start.
    for (const s of await shards()) if (s.ShardId && !iterators.has(s.ShardId)) iterators.set(s.ShardId, await iterator(s.ShardId, 'TRIM_HORIZON'));
    const keys = new Map<string, Key>();
    for (const [shardId, start] of iterators) {
      let at = start;
      while (at) {
        const page = await streams.send(new GetRecordsCommand({ ShardIterator: at }));
        for (const r of page.Records ?? []) {
          const k = unmarshall((r.dynamodb?.Keys ?? {}) as never) as Key;
          keys.set(`${k.PK}\u0000${k.SK}`, { PK: k.PK, SK: k.SK });
        }
        at = page.NextShardIterator ?? null;
        iterators.set(shardId, at);
        if (!page.Records?.length) break;
      }
    }
    return [...keys.values()];
  }

  return {
    async next() {
      const keys = await writtenKeys();
      const items: Array<Record<string, unknown>> = [];
      for (let i = 0; i < keys.length; i += 100) {
        let request: Record<string, { Keys: Key[]; ConsistentRead: boolean }> | undefined = { [table]: { Keys: keys.slice(i, i + 100), ConsistentRead: true } };
        while (request && Object.keys(request).length) {
          const out = await ddb().send(new BatchGetCommand({ RequestItems: request }));
          items.push(...(out.Responses?.[table] ?? []));
          request = out.UnprocessedKeys as typeof request;
        }
      }
      return items;
    },
  };
}

/**
 * The (name, value) pairs that no item written since the last look holds as sent. The stream
 * records a write as the write is made; should a record come late, the look is repeated for up to
 * two seconds before a pair counts as missing.
 */
export async function missingFromWrites(writes: WrittenItems, entries: ReadonlyArray<readonly [string, unknown]>): Promise<Array<readonly [string, unknown]>> {
  const items = await writes.next();
  let missing = missingEntries(items, entries);
  for (const until = Date.now() + 2_000; missing.length && Date.now() < until; ) {
    await new Promise((r) => setTimeout(r, 50));
    items.push(...(await writes.next()));
    missing = missingEntries(items, entries);
  }
  return missing;
}
