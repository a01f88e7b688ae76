/**
 * Usage for billing in the synthesized stack (contract §14): the usage consumer reads the table's
 * stream through its own mapping, filtered to the writes that carry a tally; it is granted the
 * BatchGetItem of positions and the UpdateItem of figures, on its own entities' partitions; the
 * billing routes only read; the check may write its refusal tallies, on their partition alone.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { leadingKeysOf, USAGE_CONSUMER_ENTITIES } from '../../infra/constructs/leading-keys';
import { routes } from '../../shared/routes';
import { stageStack, templateOf } from '../support/cdk';

let t: ReturnType<typeof templateOf>;
beforeAll(() => {
  t = templateOf(stageStack({ stage: 'dev' }).stack);
}, 180_000);

const tableActions = (name: string) =>
  t.actionsOf(t.functionOf(name)[1]).filter((a) => a.startsWith('dynamodb:') && !/Stream|ListStreams|GetRecords|GetShardIterator/.test(a));

describe('the usage consumer', () => {
  it('reads the stream through its own mapping: spends that counted a request and refusal tallies, failures dead-lettered', () => {
    const [fnId] = t.functionOf('usageCount');
    const mapping = t.resources('AWS::Lambda::EventSourceMapping').find(([, m]) => m.Properties.FunctionName?.Ref === fnId);
    expect(mapping![1].Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [expect.stringMatching(/^Table/), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      ParallelizationFactor: 10,
      DestinationConfig: { OnFailure: { Destination: expect.anything() } },
    });
    const patterns = (mapping![1].Properties.FilterCriteria.Filters as Array<{ Pattern: string }>).map((f) => JSON.parse(f.Pattern));
    expect(patterns).toEqual([
      {
        eventName: ['INSERT', 'MODIFY'],
        dynamodb: { NewImage: { entity: { S: ['live_quota', 'live_quota_shard'] }, tally_of: { S: [{ exists: true }] } } },
      },
      { eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { entity: { S: ['usage_refusals'] } } } },
    ]);
  });

  it("is granted the positions' BatchGetItem and the figures' UpdateItem, on its own partitions only", () => {
    expect(new Set(tableActions('usageCount'))).toEqual(new Set(['dynamodb:BatchGetItem', 'dynamodb:UpdateItem']));
    const keys = leadingKeysOf(USAGE_CONSUMER_ENTITIES);
    expect(keys).toEqual(['BILLDAY#*#*', 'BILLMARK#*', 'BILLMONTH#*#*']);
    const writes = t.statementsOf(t.functionOf('usageCount')[1]).filter((s) => [s.Action].flat().includes('dynamodb:UpdateItem'));
    for (const w of writes) expect((w as { Condition?: unknown }).Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': keys } });
  });

  it('the billing routes only read; the check writes refusal tallies', () => {
    expect(new Set(tableActions(routes.billingInstallation.name))).toEqual(new Set(['dynamodb:Query']));
    expect(new Set(tableActions(routes.billingOrganisation.name))).toEqual(new Set(['dynamodb:GetItem', 'dynamodb:Query']));
    const checkWrites = t.statementsOf(t.functionOf(routes.sessionsCheck.name)[1]).filter((s) => [s.Action].flat().includes('dynamodb:UpdateItem'));
    const granted = checkWrites.flatMap((s) => (s as { Condition?: any }).Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] ?? []);
    expect(granted).toContain('USAGEREF#*#*');
  });
});
