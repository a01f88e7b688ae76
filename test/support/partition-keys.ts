/**
 * The table partition keys a DynamoDB command touches, as IAM's `dynamodb:LeadingKeys` sees them:
 * the emulator's own reading of a request (infra/local/emulator/iam.ts), so what the tests record
 * is what the emulated stage authorises. A Query of an index names none (the condition is not on
 * the index grant, infra/constructs/table-grants.ts).
 */
import { dynamodbAuthorizations } from '../../infra/local/emulator/iam';

type Json = Record<string, unknown>;

/**
 * The document client's input in the wire form the evaluator reads: a partition key and an
 * expression value given as a plain string become `{ S: ... }` (the recorder may see the input
 * before the document client marshals it).
 */
function wireForm(value: unknown, parent = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => wireForm(v, parent));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Json).map(([k, v]) => {
      if (typeof v === 'string' && (k === 'PK' || parent === 'ExpressionAttributeValues')) return [k, { S: v }];
      return [k, wireForm(v, k)];
    }),
  );
}

export function partitionKeysOf(commandName: string, input: unknown): string[] {
  const operation = commandName.replace(/Command$/, '');
  return dynamodbAuthorizations(operation, wireForm(input) as Json, (table) => table)
    .filter((a) => !a.resource.includes('/index/'))
    .flatMap((a) => a.leadingKeys ?? []);
}
