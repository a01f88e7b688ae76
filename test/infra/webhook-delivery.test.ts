/**
 * Webhook delivery in the synthesized stack (contract §11): the table's stream, the routing
 * function with its event source mapping (batching, parallel batches, partial batch failures,
 * bisect, on-failure destination), the attempt queue (an SQS fair queue: messages carry their
 * organisation as MessageGroupId) read by the attempt function with partial batch failures and a
 * concurrency cap, least-privilege policies, and the alarm on dead letters.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { stageStack, templateOf } from '../support/cdk';
import { ATTEMPT_ENTITIES, leadingKeysOf, ROUTING_ENTITIES, ROUTING_WRITES } from '../../infra/constructs/leading-keys';
import { dynamodbAuthorizations, evaluate, toStatement } from '../../infra/local/emulator/iam';
import { budgetKeys } from '../../shared/store/delivery-budget';
import { deliveryKeys } from '../../shared/store/hook-deliveries';
import { keyKeys } from '../../shared/store/keys';
import { userKeys } from '../../shared/store/users';

let t: ReturnType<typeof templateOf>;
let m: ReturnType<typeof templateOf>;
beforeAll(() => {
  const { stack } = stageStack({ stage: 'dev' });
  t = templateOf(stack);
  m = templateOf(stack.monitoring);
}, 180_000);

const refOf = (type: string, idPrefix: string) => {
  const hit = t.resources(type).find(([id]) => id.startsWith(idPrefix));
  if (!hit) throw new Error(`no ${type} ${idPrefix}`);
  return hit[0];
};

describe('webhook delivery resources', () => {
  it('streams the table with old and new images', () => {
    t.template.hasResourceProperties('AWS::DynamoDB::GlobalTable', { StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' } });
  });

  it(
    'feeds the routing function from the stream: batched, four batches of a shard at once, failed ' +
      'records reported, bisected, failures to the dead-letter queue, filtered to the items it acts on',
    () => {
      const [fnId] = t.functionOf('hookRouting');
      const dlq = refOf('AWS::SQS::Queue', 'WebhookDeliveryDeadLetters');
      t.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: fnId },
        EventSourceArn: Match.objectLike({ 'Fn::GetAtt': [Match.stringLikeRegexp('^Table'), 'StreamArn'] }),
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: 25,
        ParallelizationFactor: 4,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: 5,
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [dlq, 'Arn'] } } },
        FilterCriteria: { Filters: Match.arrayWith([Match.objectLike({ Pattern: Match.stringLikeRegexp('"entity"') })]) },
      });
    },
  );

  it(
    'attempts run from an encrypted SQS queue with a dead-letter queue, read by the attempt function ' +
      'with partial batch failures and at most 50 invocations at once',
    () => {
      const dlq = refOf('AWS::SQS::Queue', 'WebhookDeliveryDeadLetters');
      const attempts = refOf('AWS::SQS::Queue', 'WebhookDeliveryAttempts');
      t.template.hasResourceProperties('AWS::SQS::Queue', {
        QueueName: 'gw-management-dev-hook-attempts',
        SqsManagedSseEnabled: true,
        // Six times the attempt function's 30 s.
        VisibilityTimeout: 180,
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] }, maxReceiveCount: 5 },
      });
      const [fnId, fn] = t.functionOf('hookAttempts');
      expect(fn.Properties.Timeout).toBe(30);
      t.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: fnId },
        EventSourceArn: { 'Fn::GetAtt': [attempts, 'Arn'] },
        BatchSize: 10,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: 50 },
      });
      const [, routing] = t.functionOf('hookRouting');
      expect(routing.Properties.Environment.Variables).toMatchObject({ HOOK_QUEUE_URL: { Ref: attempts } });
      // Routing signs nothing, so it never gets the service key.
      expect(routing.Properties.Environment.Variables).not.toHaveProperty('SERVER_SECRET_ARN');
      expect(fn.Properties.Environment.Variables).toMatchObject({ HOOK_QUEUE_URL: { Ref: attempts }, SERVER_SECRET_ARN: expect.anything() });
      // Private targets are for the local stage and the tests only.
      for (const [, f] of t.resources('AWS::Lambda::Function')) expect(f.Properties.Environment?.Variables ?? {}).not.toHaveProperty('ALLOW_PRIVATE_TARGETS');
    },
  );

  it(
    'grants each delivery function only the table actions its code sends, sending to the attempt queue, ' + 'and the service key to the attempt function only',
    () => {
      const tableActions = (name: string) =>
        t
          .actionsOf(t.functionOf(name)[1])
          .filter((a) => a.startsWith('dynamodb:') && !a.startsWith('dynamodb:DescribeStream') && !/Stream|ListStreams|GetRecords|GetShardIterator/.test(a));
      expect(new Set(tableActions('hookRouting'))).toEqual(new Set(['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:PutItem']));
      expect(new Set(tableActions('hookAttempts'))).toEqual(new Set(['dynamodb:GetItem', 'dynamodb:UpdateItem']));
      for (const name of ['hookRouting', 'hookAttempts']) {
        const actions = t.actionsOf(t.functionOf(name)[1]);
        expect(actions).toContain('sqs:SendMessage');
        expect(actions.some((a) => a === 'dynamodb:Scan' || a === 'dynamodb:*' || a === 'sqs:*')).toBe(false);
      }
      expect(t.actionsOf(t.functionOf('hookAttempts')[1])).toContain('secretsmanager:GetSecretValue');
      expect(t.actionsOf(t.functionOf('hookRouting')[1])).not.toContain('secretsmanager:GetSecretValue');
      // Route functions never reach the queues.
      expect(t.actionsOf(t.functionOf('hooksTest')[1]).some((a) => a.startsWith('sqs:'))).toBe(false);
    },
  );

  it('limits each delivery function to the partitions of the entities its code touches (dynamodb:LeadingKeys from the entity registry)', () => {
    const itemGrant = (name: string) => {
      const hits = t.statementsOf(t.functionOf(name)[1]).filter((st: any) => [st.Action].flat().includes('dynamodb:GetItem'));
      expect(hits).toHaveLength(1);
      return hits[0] as any;
    };
    expect(itemGrant('hookAttempts').Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['HOOKBUDGET#*', 'HOOKDLV#*#*', 'ORG#*#HOOK#*'] },
    });
    expect(itemGrant('hookAttempts').Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys']).toEqual(leadingKeysOf(ATTEMPT_ENTITIES));
    // Routing reads what it routes by (an organisation's item too: whether it is suspended) and writes only deliveries and cooldowns.
    const reads = ROUTING_ENTITIES.filter((e) => !(ROUTING_WRITES as readonly string[]).includes(e));
    expect(itemGrant('hookRouting').Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys']).toEqual(leadingKeysOf(reads));
    const routingWrite = t.statementsOf(t.functionOf('hookRouting')[1]).filter((st: any) => [st.Action].flat().includes('dynamodb:PutItem'));
    expect(routingWrite).toHaveLength(1);
    expect((routingWrite[0] as any).Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys']).toEqual(leadingKeysOf(ROUTING_WRITES));
    // Neither reaches a user, an access key or an idempotency record; neither writes an organisation's partition.
    for (const name of ['hookRouting', 'hookAttempts']) {
      expect(itemGrant(name).Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys'].filter((p: string) => /^(USER|AKEY|IDEMP)/.test(p))).toEqual([]);
    }
    expect((routingWrite[0] as any).Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys'].filter((p: string) => /^ORG#\*$/.test(p))).toEqual([]);
    expect(itemGrant('hookAttempts').Condition['ForAllValues:StringLike']['dynamodb:LeadingKeys']).not.toContain('ORG#*');
  });

  it("the emulator, reading the attempt function's grant, denies it a user item and allows its own items", () => {
    const table = 'arn:aws:dynamodb:us-east-1:000000000000:table/gw';
    const grant = t.statementsOf(t.functionOf('hookAttempts')[1]).find((st: any) => [st.Action].flat().includes('dynamodb:GetItem')) as any;
    // The template's statement as the emulator reads it, with the table's ARN resolved.
    const statement = toStatement({ ...grant, Resource: table }).statement!;
    const ask = (operation: string, key: { PK: string; SK: string }) =>
      dynamodbAuthorizations(operation, { TableName: table, Key: { PK: { S: key.PK }, SK: { S: key.SK } } }, (x) => x).map((a) => evaluate([statement], a));
    expect(ask('GetItem', userKeys.user('5f0c0a0b0c0d0e0f10111213'))).toEqual(['no allow']);
    expect(ask('UpdateItem', userKeys.user('5f0c0a0b0c0d0e0f10111213'))).toEqual(['no allow']);
    expect(ask('GetItem', keyKeys.key('a'.repeat(64)))).toEqual(['no allow']);
    expect(ask('GetItem', deliveryKeys.delivery('org1', 'hook1', 'd1'))).toEqual(['allowed']);
    expect(ask('UpdateItem', budgetKeys.inFlight('org1'))).toEqual(['allowed']);
  });

  it('alarms on any message in the dead-letter queue', () => {
    const alarms = m.resources('AWS::CloudWatch::Alarm').filter(([, a]) => a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible');
    expect(alarms).toHaveLength(1);
    expect(alarms[0]![1].Properties).toMatchObject({ Namespace: 'AWS/SQS', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
  });
});
