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
    ReturnValues: 'ALL_NEW',
  }));
  return { isAuthorized: true, context: { used: r.Attributes.used } };
};
`;
