/**
 * Offboarding in the synthesized stack (contract §9): the worker reads the table's stream through
 * its own mapping, filtered to runs not done; its grant names what it deletes and never a Put; of
 * the audit entries it may only read and delete; the consumers that skip an organisation being
 * offboarded may only read its run.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { leadingKeysOf, OFFBOARDING_ENTITIES } from '../../infra/constructs/leading-keys';
import { leadingKeysOfStatement, stageStack, templateOf, type ItemStatement } from '../support/cdk';

let t: ReturnType<typeof templateOf>;
beforeAll(() => {
  t = templateOf(stageStack({ stage: 'dev' }).stack);
}, 180_000);

const keysOf = (s: ItemStatement) => leadingKeysOfStatement(s)!;

describe('the offboarding worker', () => {
  it('reads the stream through its own mapping, only runs not done, failures dead-lettered', () => {
    const [fnId] = t.functionOf('offboarding');
    const mapping = t.resources('AWS::Lambda::EventSourceMapping').find(([, m]) => m.Properties.FunctionName?.Ref === fnId);
    expect(mapping![1].Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [expect.stringMatching(/^Table/), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      DestinationConfig: { OnFailure: { Destination: expect.anything() } },
    });
    const patterns = (mapping![1].Properties.FilterCriteria.Filters as Array<{ Pattern: string }>).map((f) => JSON.parse(f.Pattern));
    expect(patterns).toEqual([
      { eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { entity: { S: ['offboarding'] }, state: { S: [{ 'anything-but': ['done'] }] } } } },
    ]);
  });

  it('is granted the deletes of what an organisation owns, never a Put, and of audit entries only their read and delete', () => {
    const statements = t.itemStatementsOf('offboarding');
    const actions = new Set(statements.flatMap((s) => [s.Action].flat()));
    expect(actions.has('dynamodb:PutItem')).toBe(false);
    expect(actions.has('dynamodb:Scan')).toBe(false);
    const main = statements.find((s) => keysOf(s).includes('KEY#*'))!;
    expect(keysOf(main)).toEqual(leadingKeysOf(OFFBOARDING_ENTITIES));
    // Not what others own or what expires: idempotency records, gateway reports, events, audit entries.
    for (const p of ['IDEMP#*#*', 'GATEWAYS#ALL', 'EVENT#*', 'AUDIT#*', 'DELETED#*|*']) expect(keysOf(main)).not.toContain(p);
    const audit = statements.filter((s) => keysOf(s).includes('AUDIT#*'));
    expect(audit.map((s) => [keysOf(s), [s.Action].flat().sort()])).toEqual([[['AUDIT#*'], ['dynamodb:BatchGetItem', 'dynamodb:DeleteItem']]]);
  });

  it('the usage and audit consumers may only read a run', () => {
    for (const fn of ['usageCount', 'auditTrail']) {
      const runs = t.itemStatementsOf(fn).filter((s) => keysOf(s).includes('OFFBOARD#*'));
      expect(runs.map((s) => [keysOf(s), [s.Action].flat()])).toEqual([[['OFFBOARD#*'], ['dynamodb:BatchGetItem']]]);
    }
  });
});
