/**
 * The audit trail in the synthesized stack (contract §12): the consumer reads the table's stream
 * through its own event source mapping, filtered to the configuration objects; it is granted the
 * Query and the PutItem its code sends and nothing else; the audit-log routes only read the trail
 * (their one write is the organisation's read unit, on the limit counter's partition alone).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { leadingKeysOf } from '../../infra/constructs/leading-keys';
import { ORG_LIMIT_TABLE_ACCESS } from '../../shared/route-def';
import { routes } from '../../shared/routes';
import { stageStack, templateOf } from '../support/cdk';

let t: ReturnType<typeof templateOf>;
beforeAll(() => {
  const { stack } = stageStack({ stage: 'dev', auditRetentionDays: '30' });
  t = templateOf(stack);
}, 180_000);

const tableActions = (name: string) =>
  t.actionsOf(t.functionOf(name)[1]).filter((a) => a.startsWith('dynamodb:') && !/Stream|ListStreams|GetRecords|GetShardIterator/.test(a));

describe('the audit consumer', () => {
  it('reads the stream through its own mapping: configuration objects only (a REMOVE by its old image), failures reported and dead-lettered', () => {
    const [fnId, fn] = t.functionOf('auditTrail');
    expect(fn.Properties.Environment.Variables).toMatchObject({ AUDIT_RETENTION_DAYS: '30' });
    const mapping = t.resources('AWS::Lambda::EventSourceMapping').find(([, m]) => m.Properties.FunctionName?.Ref === fnId);
    expect(mapping).toBeDefined();
    expect(mapping![1].Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [expect.stringMatching(/^Table/), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      DestinationConfig: { OnFailure: { Destination: expect.anything() } },
    });
    const patterns = (mapping![1].Properties.FilterCriteria.Filters as Array<{ Pattern: string }>).map((f) => JSON.parse(f.Pattern));
    expect(patterns).toEqual([
      {
        eventName: ['INSERT', 'MODIFY'],
        dynamodb: {
          NewImage: { entity: { S: expect.arrayContaining(['api', 'key', 'hook', 'user', 'org', 'org_session', 'policy', 'asset', 'oauth_client']) } },
        },
      },
      { eventName: ['REMOVE'], dynamodb: { OldImage: { entity: { S: expect.arrayContaining(['api', 'key', 'hook', 'policy', 'asset', 'oauth_client']) } } } },
    ]);
  });

  it('is granted exactly the Query of deletion records and the Put of entries; the audit-log routes only read the trail (and spend a read unit)', () => {
    // BatchGetItem: whether organisations are being offboarded, on their runs alone (test/infra/offboarding.test.ts).
    expect(new Set(tableActions('auditTrail'))).toEqual(new Set(['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:BatchGetItem']));
    expect(new Set(tableActions(routes.auditList.name))).toEqual(new Set(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem']));
    // Its one write is the organisation limit's counter: granted on that partition alone.
    const counter = leadingKeysOf([ORG_LIMIT_TABLE_ACCESS.entity]);
    const writes = t.statementsOf(t.functionOf(routes.auditList.name)[1]).filter((s) => [s.Action].flat().includes('dynamodb:UpdateItem'));
    expect(writes.map((s) => [s.Action].flat())).toEqual([['dynamodb:UpdateItem']]);
    expect((writes[0] as { Condition?: unknown }).Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': counter } });
    expect(new Set(tableActions(routes.auditAdminList.name))).toEqual(new Set(['dynamodb:Query']));
  });
});
