/**
 * The item-size guard against DynamoDB Local's own limit: for items of every value type, the
 * largest item the guard passes (exactly 400 KB by its count) is stored, and one byte more is
 * refused by both. A raw client without the guard shows what DynamoDB itself does.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../shared/store/db/client';
import { assertItemFits, itemSize, MAX_ITEM_BYTES } from '../../shared/store/db/item-size';
import { useTestTable } from '../support/table';

let raw: DynamoDBDocumentClient;
beforeAll(async () => {
  await useTestTable();
  raw = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: 'us-east-1', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
});

const shapes: Record<string, (fill: string) => Record<string, unknown>> = {
  string: (f) => ({ PK: 'S', SK: 'x', s: f }),
  'UTF-8 names and values': (f) => ({ PK: 'U', SK: 'x', 'é☃': '€𝄞', s: f }),
  'nested map': (f) => ({ PK: 'M', SK: 'x', m: { x: f, y: { z: 1, w: [1, 'ab', true, null] }, e: {} } }),
  list: (f) => ({ PK: 'L', SK: 'x', l: [f, 'abc', 123456, { k: 'v' }, []] }),
  numbers: (f) => ({ PK: 'N', SK: 'x', s: f, a: 1.5, b: -1.5, c: -0.000123, d: 12345678901234, e: 0, g: 1e15, h: 1000.0001, i: -9007199254740991 }),
  'binary and sets': (f) => ({ PK: 'B', SK: 'x', b: Buffer.alloc(1000, 1), ss: new Set(['a', 'bb']), ns: new Set([1, 22, 333]), s: f }),
  'undefined members': (f) => ({ PK: 'D', SK: 'x', gone: undefined, m: { gone: undefined, kept: 1 }, s: f }),
};

const put = (client: DynamoDBDocumentClient, item: Record<string, unknown>) => client.send(new PutCommand({ TableName: tableName(), Item: item }));

describe('item size as DynamoDB counts it (400 KB, names included)', () => {
  for (const [name, shape] of Object.entries(shapes)) {
    it(`${name}: exactly 400 KB is stored, one byte more is refused by DynamoDB and by the guard`, async () => {
      const fits = shape('x'.repeat(MAX_ITEM_BYTES - itemSize(shape(''))));
      expect(itemSize(fits)).toBe(MAX_ITEM_BYTES);
      await put(raw, fits);
      await put(ddb(), fits);
      const over = shape('x'.repeat(MAX_ITEM_BYTES - itemSize(shape('')) + 1));
      await expect(put(raw, over)).rejects.toThrow(/Item size has exceeded the maximum allowed size/);
      await expect(put(ddb(), over)).rejects.toMatchObject({ status: 413 });
    });
  }

  it('names the object in its 413 message', () => {
    expect(() => assertItemFits({ entity: 'hook', s: 'x'.repeat(MAX_ITEM_BYTES) })).toThrow(
      "The webhook is larger than DynamoDB's 400 KB item limit (401 KB as stored); make it smaller",
    );
  });
});
