/**
 * The emulator's IAM (infra/local/emulator/iam.ts): AWS's evaluation for the statements our
 * templates use, and the actions and resources each DynamoDB call needs. The real stack's
 * policies, as the emulator reads them, are checked in test/infra/stack.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { dynamodbAuthorizations, evaluate, toStatement, type Statement } from '../../infra/local/emulator/iam';

const TABLE = 'arn:aws:dynamodb:us-east-1:000000000000:table/t';
const allow = (actions: string[], resources: string[]): Statement => ({ effect: 'Allow', actions, resources });

describe('policy evaluation', () => {
  it('allows what an Allow names, with * and ? wildcards; actions ignore case, ARNs do not', () => {
    const s = [allow(['dynamodb:Get*', 'DynamoDB:query'], [TABLE, `${TABLE}/index/*`])];
    expect(evaluate(s, { action: 'dynamodb:GetItem', resource: TABLE })).toBe('allowed');
    expect(evaluate(s, { action: 'dynamodb:Query', resource: `${TABLE}/index/GSI1` })).toBe('allowed');
    expect(evaluate(s, { action: 'dynamodb:Scan', resource: TABLE })).toBe('no allow');
    expect(evaluate(s, { action: 'dynamodb:GetItem', resource: `${TABLE}2` })).toBe('no allow');
    expect(evaluate(s, { action: 'dynamodb:GetItem', resource: TABLE.toUpperCase() })).toBe('no allow');
    expect(evaluate([allow(['dynamodb:?etItem'], ['*'])], { action: 'dynamodb:GetItem', resource: TABLE })).toBe('allowed');
  });

  it('lets an explicit Deny win over any Allow', () => {
    const s: Statement[] = [allow(['dynamodb:*'], ['*']), { effect: 'Deny', actions: ['dynamodb:DeleteItem'], resources: [TABLE] }];
    expect(evaluate(s, { action: 'dynamodb:DeleteItem', resource: TABLE })).toBe('explicit deny');
    expect(evaluate(s, { action: 'dynamodb:PutItem', resource: TABLE })).toBe('allowed');
  });

  it('never models a statement looser than AWS: a conditional Allow is dropped, a conditional Deny applies', () => {
    expect(toStatement({ Effect: 'Allow', Action: 'dynamodb:*', Resource: '*', Condition: {} })).toEqual({ note: expect.stringContaining('left out') });
    expect(toStatement({ Effect: 'Deny', Action: 'dynamodb:Scan', Resource: '*', Condition: {} }).statement).toEqual({
      effect: 'Deny',
      actions: ['dynamodb:Scan'],
      resources: ['*'],
    });
    expect(toStatement({ Effect: 'Deny', NotAction: 'dynamodb:GetItem', Resource: TABLE }).statement).toEqual({
      effect: 'Deny',
      actions: ['*'],
      resources: ['*'],
    });
  });
});

describe('what a DynamoDB call needs', () => {
  const arn = (t: string) => `arn:aws:dynamodb:us-east-1:000000000000:table/${t}`;
  it('names the index ARN for a Query or Scan on an index', () => {
    expect(dynamodbAuthorizations('Query', { TableName: 't', IndexName: 'GSI2' }, arn)).toEqual([
      { action: 'dynamodb:Query', resource: `${TABLE}/index/GSI2` },
    ]);
    expect(dynamodbAuthorizations('Query', { TableName: 't' }, arn)).toEqual([{ action: 'dynamodb:Query', resource: TABLE }]);
  });

  it("maps a transaction's items to their own actions, and a batch to its action on every table", () => {
    const tx = {
      TransactItems: [{ Put: { TableName: 't' } }, { Update: { TableName: 't' } }, { Delete: { TableName: 'u' } }, { ConditionCheck: { TableName: 't' } }],
    };
    expect(dynamodbAuthorizations('TransactWriteItems', tx, arn)).toEqual([
      { action: 'dynamodb:PutItem', resource: TABLE },
      { action: 'dynamodb:UpdateItem', resource: TABLE },
      { action: 'dynamodb:DeleteItem', resource: arn('u') },
      { action: 'dynamodb:ConditionCheckItem', resource: TABLE },
    ]);
    expect(dynamodbAuthorizations('TransactGetItems', { TransactItems: [{ Get: { TableName: 't' } }] }, arn)).toEqual([
      { action: 'dynamodb:GetItem', resource: TABLE },
    ]);
    expect(dynamodbAuthorizations('BatchWriteItem', { RequestItems: { t: [], u: [] } }, arn).map((a) => `${a.action} ${a.resource}`)).toEqual([
      `dynamodb:BatchWriteItem ${TABLE}`,
      `dynamodb:BatchWriteItem ${arn('u')}`,
    ]);
  });
});

describe('dynamodb:LeadingKeys (ForAllValues:StringLike), the condition of item-level grants', () => {
  const arn = (t: string) => `arn:aws:dynamodb:us-east-1:000000000000:table/${t}`;
  const raw = {
    Effect: 'Allow',
    Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'],
    Resource: TABLE,
    Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['HOOKDLV#*#*', 'ORG#*#HOOK#*'] } },
  };
  const statements = [toStatement(raw).statement!];
  const k = (pk: string) => ({ PK: { S: pk }, SK: { S: 'x' } });
  const verdict = (operation: string, body: Record<string, unknown>) =>
    dynamodbAuthorizations(operation, { TableName: 't', ...body }, arn).map((a) => evaluate(statements, a));

  it('is read from the template, not dropped; any other condition still drops the Allow', () => {
    expect(statements[0]).toMatchObject({ effect: 'Allow', leadingKeys: ['HOOKDLV#*#*', 'ORG#*#HOOK#*'] });
    expect(toStatement({ ...raw, Condition: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': ['X#*'] } } }).statement).toBeUndefined();
    expect(
      toStatement({ ...raw, Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['X#*'], 'dynamodb:Attributes': ['a'] } } }).statement,
    ).toBeUndefined();
  });

  it('allows the partitions it names and denies any other, for single items, transactions, batches and queries', () => {
    expect(verdict('GetItem', { Key: k('HOOKDLV#o1#h1') })).toEqual(['allowed']);
    expect(verdict('UpdateItem', { Key: k('ORG#o1#HOOK#h1') })).toEqual(['allowed']);
    expect(verdict('GetItem', { Key: k('USER#u1') })).toEqual(['no allow']);
    expect(verdict('PutItem', { Item: { ...k('AKEY#abc'), a: { S: '1' } } })).toEqual(['no allow']);
    const tx = { TransactItems: [{ Put: { TableName: 't', Item: k('HOOKDLV#o#h') } }, { Put: { TableName: 't', Item: k('USER#u') } }] };
    expect(dynamodbAuthorizations('TransactWriteItems', tx, arn).map((a) => evaluate(statements, a))).toEqual(['allowed', 'no allow']);
    expect(verdict('BatchGetItem', { RequestItems: { t: { Keys: [k('ORG#o#HOOK#h'), k('ORG#o#HOOK#i')] } } })).toEqual(['allowed']);
    // One key outside the patterns refuses the whole batch (for all values).
    expect(verdict('BatchGetItem', { RequestItems: { t: { Keys: [k('ORG#o#HOOK#h'), k('KEY#k')] } } })).toEqual(['no allow']);
    expect(
      verdict('Query', {
        KeyConditionExpression: '#p = :pk AND begins_with(SK, :s)',
        ExpressionAttributeNames: { '#p': 'PK' },
        ExpressionAttributeValues: { ':pk': { S: 'HOOKDLV#o#h' }, ':s': { S: 'D' } },
      }),
    ).toEqual(['allowed']);
    expect(verdict('Query', { KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': { S: 'USER#u' } } })).toEqual(['no allow']);
  });
});
