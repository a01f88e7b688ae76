import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundle, OUT_DIR } from './bundle';

/**
 * A yardstick function bundled as the stack bundles its functions (one minified ESM file with the
 * SDK), in an asset folder of its own (`index.mjs`, handler `index.handler`), as cdk.out holds them.
 */
export async function functionAsset(name: string, source: string): Promise<string> {
  mkdirSync(OUT_DIR, { recursive: true });
  const entry = join(OUT_DIR, `${name}.ts`);
  writeFileSync(entry, source);
  const assetDir = join(OUT_DIR, `${name}-asset`);
  mkdirSync(assetDir, { recursive: true });
  renameSync((await bundle(`${name}-fn`, entry, [], { plain: true })).file, join(assetDir, 'index.mjs'));
  return assetDir;
}

/** The cold-start yardstick: a function that only builds the SDK's document client. */
export const SDK_ONLY_SOURCE =
  "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\n" +
  'const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));\nexport const handler = async () => typeof doc.send;\n';

/**
 * The warm yardstick: the check's steady-state write and nothing else, one conditional UpdateItem
 * (ADD used 1 while the window is open and under the quota), as bench/floor.ts sends it.
 */
export const UPDATE_ONLY_SOURCE = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async (event) => {
  const r = await doc.send(new UpdateCommand({
    TableName: process.env.TABLE_NAME,
    Key: { PK: event.pk, SK: event.sk },
    UpdateExpression: 'ADD used :one',
    ConditionExpression: 'renews > :now AND used < :max',
    ExpressionAttributeValues: { ':one': 1, ':now': Math.floor(Date.now() / 1000), ':max': event.max },
    ReturnValues: 'UPDATED_NEW',
  }));
  return { isAuthorized: true, context: { used: r.Attributes.used } };
};
`;

/**
 * Both replays' reading of a call they send again (`inputOf`): the wire's base64 binaries as their
 * clients take them, and a transaction's ClientRequestToken left for the client to make afresh:
 * with the one the route sent, DynamoDB answers the replay as a retry of the committed
 * transaction, from memory.
 */
const WIRE_INPUT = `const revive = (v) => {
  if (Array.isArray(v)) return v.map(revive);
  if (v === null || typeof v !== 'object') return v;
  const keys = Object.keys(v);
  if (keys.length === 1 && keys[0] === 'B' && typeof v.B === 'string') return { B: Buffer.from(v.B, 'base64') };
  if (keys.length === 1 && keys[0] === 'BS' && Array.isArray(v.BS)) return { BS: v.BS.map((b) => Buffer.from(b, 'base64')) };
  return Object.fromEntries(keys.map((k) => [k, revive(v[k])]));
};
const inputOf = (c) => {
  const { ClientRequestToken: _retry, ...input } = JSON.parse(c.body);
  return revive(input);
};
`;

/**
 * The per-route floor (bench/scenarios/routes.ts): the DynamoDB calls a route's function made, as
 * it sent them on the wire, sent again with the bare client and nothing else. Calls the function
 * had in flight together go together (a wave); a call's own failure (a condition, a conflict) is
 * part of its cost and does not stop the rest.
 */
export const REPLAY_SOURCE = `import * as ddb from '@aws-sdk/client-dynamodb';
const client = new ddb.DynamoDBClient({});
${WIRE_INPUT}export const handler = async (event) => {
  let failed = 0;
  for (const wave of event.waves) {
    await Promise.all(wave.map(async (c) => {
      try {
        await client.send(new ddb[c.operation + 'Command'](inputOf(c)));
      } catch {
        failed++;
      }
    }));
  }
  return { calls: event.waves.flat().length, failed };
};
`;

/**
 * The per-route yardstick of the stack's own client: the same calls as REPLAY_SOURCE, sent through
 * lib-dynamodb's document client (the client the stack names, with the store's marshalling
 * options). Its values come back from the wire form to native ones first, where lib-dynamodb's
 * own map of each command (inputKeyNodes) says attribute values are; that conversion is timed
 * and reported (convertMs), so the bench takes it off: a store holds native values already.
 */
export const DOCUMENT_REPLAY_SOURCE = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as doc from '@aws-sdk/lib-dynamodb';
import { convertToNative } from '@aws-sdk/util-dynamodb';
const client = doc.DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false } });
const COMMAND = { GetItem: 'Get', PutItem: 'Put', UpdateItem: 'Update', DeleteItem: 'Delete', Query: 'Query', Scan: 'Scan',
  BatchGetItem: 'BatchGet', BatchWriteItem: 'BatchWrite', TransactGetItems: 'TransactGet', TransactWriteItems: 'TransactWrite' };
${WIRE_INPUT}const each = (obj, f) => (Array.isArray(obj) ? obj.map(f) : Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, f(v)])));
// lib-dynamodb's key nodes: null is one value, an empty {} or [] every child, '*' every child by the nodes below it.
const native = (obj, nodes) => {
  if (obj === undefined || obj === null) return obj;
  if (nodes === null) return convertToNative(obj);
  const keys = Object.keys(nodes);
  if (keys.length === 0) return each(obj, (v) => convertToNative(v));
  if (keys.length === 1 && keys[0] === '*') return each(obj, (v) => native(v, nodes['*']));
  const out = Array.isArray(obj) ? [...obj] : { ...obj };
  for (const k of keys) if (obj[k] !== undefined) out[k] = native(obj[k], nodes[k]);
  return out;
};
const command = (c) => {
  const Command = doc[COMMAND[c.operation] + 'Command'];
  return new Command(native(inputOf(c), new Command({}).inputKeyNodes));
};
export const handler = async (event) => {
  const started = performance.now();
  const waves = event.waves.map((wave) => wave.map(command));
  const convertMs = performance.now() - started;
  let failed = 0;
  for (const wave of waves) {
    await Promise.all(wave.map(async (c) => {
      try {
        await client.send(c);
      } catch {
        failed++;
      }
    }));
  }
  return { calls: waves.flat().length, failed, convertMs };
};
`;
