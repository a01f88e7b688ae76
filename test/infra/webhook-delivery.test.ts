/**
 * Webhook delivery in the synthesized stack (contract §11): the table's stream, the delivery
 * function with its event source mapping (batching, bisect, on-failure destination), the retry
 * queue with its dead-letter queue, least-privilege policies, and the alarm on dead letters.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { stageStack, templateOf } from '../support/cdk';

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

  it('feeds the delivery function from the stream: batched, bisected on error, failures to the dead-letter queue, filtered to the items it acts on', () => {
    const [fnId] = t.functionOf('hookDelivery');
    const dlq = refOf('AWS::SQS::Queue', 'WebhookDeliveryDeadLetters');
    t.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId },
      EventSourceArn: Match.objectLike({ 'Fn::GetAtt': [Match.stringLikeRegexp('^Table'), 'StreamArn'] }),
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 25,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 5,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [dlq, 'Arn'] } } },
      FilterCriteria: { Filters: Match.arrayWith([Match.objectLike({ Pattern: Match.stringLikeRegexp('"entity"') })]) },
    });
  });

  it('retries through an encrypted SQS queue with a dead-letter queue, read by the retry function with partial batch failures', () => {
    const dlq = refOf('AWS::SQS::Queue', 'WebhookDeliveryDeadLetters');
    const retries = refOf('AWS::SQS::Queue', 'WebhookDeliveryRetries');
    t.template.hasResourceProperties('AWS::SQS::Queue', {
      QueueName: 'gw-management-dev-hook-retries',
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] }, maxReceiveCount: 5 },
    });
    const [fnId] = t.functionOf('hookRetry');
    t.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: fnId },
      EventSourceArn: { 'Fn::GetAtt': [retries, 'Arn'] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const [, delivery] = t.functionOf('hookDelivery');
    expect(delivery.Properties.Environment.Variables).toMatchObject({ HOOK_RETRY_QUEUE_URL: { Ref: retries }, SERVER_SECRET_ARN: expect.anything() });
    // Private targets are for the local stage and the tests only.
    for (const [, f] of t.resources('AWS::Lambda::Function')) expect(f.Properties.Environment?.Variables ?? {}).not.toHaveProperty('ALLOW_PRIVATE_TARGETS');
  });

  it('grants each delivery function only the table actions its code sends, the service key and sending to the retry queue', () => {
    const tableActions = (name: string) =>
      t.actionsOf(t.functionOf(name)[1]).filter((a) => a.startsWith('dynamodb:') && !a.startsWith('dynamodb:DescribeStream') && !/Stream|ListStreams|GetRecords|GetShardIterator/.test(a));
    expect(new Set(tableActions('hookDelivery'))).toEqual(new Set(['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem']));
    expect(new Set(tableActions('hookRetry'))).toEqual(new Set(['dynamodb:GetItem', 'dynamodb:UpdateItem']));
    for (const name of ['hookDelivery', 'hookRetry']) {
      const actions = t.actionsOf(t.functionOf(name)[1]);
      expect(actions).toContain('sqs:SendMessage');
      expect(actions).toContain('secretsmanager:GetSecretValue');
      expect(actions.some((a) => a === 'dynamodb:Scan' || a === 'dynamodb:*' || a === 'sqs:*')).toBe(false);
    }
    // Route functions never reach the queues.
    expect(t.actionsOf(t.functionOf('hooksTest')[1]).some((a) => a.startsWith('sqs:'))).toBe(false);
  });

  it('alarms on any message in the dead-letter queue', () => {
    const alarms = m.resources('AWS::CloudWatch::Alarm').filter(([, a]) => a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible');
    expect(alarms).toHaveLength(1);
    expect(alarms[0]![1].Properties).toMatchObject({ Namespace: 'AWS/SQS', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
  });
});
