/**
 * Imports finished in the background in the synthesized stack (contract §9): the worker reads the
 * table's stream through its own mapping, filtered to runs under way, failures dead-lettered; its
 * grant is the import route's own (what an import writes, its run and its parts) and nothing else.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { leadingKeysOf } from '../../infra/constructs/leading-keys';
import { routes } from '../../shared/routes';
import { leadingKeysOfStatement, stageStack, templateOf, type ItemStatement } from '../support/cdk';

let t: ReturnType<typeof templateOf>;
beforeAll(() => {
  t = templateOf(stageStack({ stage: 'dev' }).stack);
}, 180_000);

const keysOf = (s: ItemStatement) => leadingKeysOfStatement(s)!;

describe('the import worker', () => {
  it('reads the stream through its own mapping, only runs under way, failures dead-lettered', () => {
    const [fnId] = t.functionOf('import');
    const mapping = t.resources('AWS::Lambda::EventSourceMapping').find(([, m]) => m.Properties.FunctionName?.Ref === fnId);
    expect(mapping![1].Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [expect.stringMatching(/^Table/), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      DestinationConfig: { OnFailure: { Destination: expect.anything() } },
    });
    const patterns = (mapping![1].Properties.FilterCriteria.Filters as Array<{ Pattern: string }>).map((f) => JSON.parse(f.Pattern));
    expect(patterns).toEqual([{ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { entity: { S: ['import_run'] }, state: { S: ['importing'] } } } }]);
  });

  it("is granted exactly the import route's items and actions: what an import writes, its run and parts, never a Scan", () => {
    const statements = t.itemStatementsOf('import');
    expect(statements.map(keysOf)).toEqual([leadingKeysOf(routes.organisationsImport.tableEntities!)]);
    expect(keysOf(statements[0]!)).toContain('IMPORT#*');
    for (const p of ['IDEMP#*#*', 'AUDIT#*', 'EVENT#*', 'GATEWAYS#ALL']) expect(keysOf(statements[0]!)).not.toContain(p);
    const actions = new Set(statements.flatMap((s) => [s.Action].flat()));
    expect(actions.has('dynamodb:Scan')).toBe(false);
    expect([...actions].sort()).toEqual(routes.organisationsImport.tableActions!.map((a) => `dynamodb:${a}`).sort());
  });
});
