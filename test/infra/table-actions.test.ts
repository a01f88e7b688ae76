/**
 * Least privilege on the table, per function: the template grants each route's function exactly
 * the actions its route declares (which test/after/table-actions.test.ts proves are the actions
 * its code sends), so an action granted but never used fails one of the two. The 404/405
 * fallback and /openapi.json get no table access; read routes only read, but for the UpdateItem
 * of their organisation limit's counter (granted on its partitions alone: leading-keys.test.ts);
 * nothing may Scan.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { STAGES, type StageName } from '../../infra/config';
import { ORG_LIMIT_TABLE_ACCESS, orgLimitOf, READ_TABLE_ACTIONS } from '../../shared/route-def';
import { routeList } from '../../shared/routes';
import { stageStack, templateOf } from '../support/cdk';

const synthesized = new Map<StageName, ReturnType<typeof templateOf>>();
beforeAll(() => {
  for (const stage of STAGES) synthesized.set(stage, templateOf(stageStack({ stage }).stack));
}, 180_000);

describe('the route table', () => {
  it('every built route declares its table actions, and read routes only read (but for their organisation limit)', () => {
    expect(
      routeList.filter((r) => !r.tableActions).map((r) => r.name),
      'add tableActions to these routes',
    ).toEqual([]);
    for (const r of routeList.filter((x) => x.access === 'read')) {
      expect(
        r.tableActions!.filter((a) => !(READ_TABLE_ACTIONS as readonly string[]).includes(a)),
        r.name,
      ).toEqual(orgLimitOf(r) ? [ORG_LIMIT_TABLE_ACCESS.action] : []);
    }
  });
});

describe.each(STAGES)('table actions in the %s template', (stage) => {
  const tableActionsOf = (route: string) => {
    const t = synthesized.get(stage)!;
    return t
      .actionsOf(t.functionOf(route)[1])
      .filter((a) => a.startsWith('dynamodb:'))
      .map((a) => a.slice('dynamodb:'.length));
  };

  it('grants each function exactly its route declared actions', () => {
    const granted = Object.fromEntries(routeList.map((r) => [r.name, [...new Set(tableActionsOf(r.name))].sort()]));
    const declared = Object.fromEntries(routeList.map((r) => [r.name, [...(r.tableActions ?? [])].sort()]));
    expect(granted).toEqual(declared);
  });

  it('gives the fallback and /openapi.json no table access', () => {
    expect(tableActionsOf('fallback')).toEqual([]);
    expect(tableActionsOf('openapi')).toEqual([]);
  });

  it('lets only Query reach the indexes, and only for routes that query; no Scan, no wildcard action', () => {
    const t = synthesized.get(stage)!;
    for (const r of [...routeList.map((x) => x.name), 'fallback']) {
      for (const s of t.statementsOf(t.functionOf(r)[1])) {
        const actions = [s.Action].flat();
        expect(
          actions.some((a) => a === 'dynamodb:Scan' || a.endsWith(':*')),
          r,
        ).toBe(false);
        const resources = JSON.stringify(s.Resource);
        if (resources.includes('/index/*')) expect(actions, r).toEqual(['dynamodb:Query']);
        // Only X-Ray, which has no resource-level permissions, is granted on every resource.
        if (s.Resource === '*') expect(actions, r).toEqual(['xray:PutTraceSegments', 'xray:PutTelemetryRecords']);
      }
      const indexGrant = t.statementsOf(t.functionOf(r)[1]).some((s) => JSON.stringify(s.Resource).includes('/index/*'));
      const declared = routeList.find((x) => x.name === r)?.tableActions ?? [];
      expect(indexGrant, r).toBe(declared.includes('Query'));
    }
  });
});
