/**
 * Item-level least privilege in the synthesized stack (infra/constructs/leading-keys.ts): every
 * function's item grant on the table holds a dynamodb:LeadingKeys condition with the partitions
 * of the entities it declares, and the audit fence holds: only the audit consumer may write an
 * audit entry (contract §12). The emulator's IAM evaluator (infra/local/emulator/iam.ts) reads
 * the synthesized statements as the emulated stage does, and refuses what AWS would.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_CONSUMER_ENTITIES, leadingKeysOf } from '../../infra/constructs/leading-keys';
import { dynamodbAuthorizations, evaluate, type Statement, toStatement } from '../../infra/local/emulator/iam';
import { ORG_LIMIT_TABLE_ACCESS, orgLimitOf, READ_TABLE_ACTIONS, WRITE_TABLE_ACTIONS } from '../../shared/route-def';
import { definedEntities } from '../../shared/store/db/entity';
import { routeList, routes } from '../../shared/routes';
import { keyKeys } from '../../shared/store/keys';
import { userKeys } from '../../shared/store/users';
import { stageStack, templateOf } from '../support/cdk';

let t: ReturnType<typeof templateOf>;
beforeAll(() => {
  const { stack } = stageStack({ stage: 'dev', demo: 'on' });
  t = templateOf(stack);
}, 180_000);

const TABLE = 'arn:aws:dynamodb:us-east-1:000000000000:table/gw';
const ITEM_ACTIONS = [...READ_TABLE_ACTIONS, ...WRITE_TABLE_ACTIONS].map((a) => `dynamodb:${a}`);
type Raw = { Action: string | string[]; Resource: unknown; Condition?: any };

/**
 * A function's statements on the table and its indexes (not its stream), their resource resolved
 * to the table's ARN (or its indexes'), as the emulator reads them.
 */
function tableStatements(name: string): { raw: Raw[]; statements: Statement[] } {
  const raw = (t.statementsOf(t.functionOf(name)[1]) as Raw[]).filter(
    (s) => [s.Action].flat().some((a) => ITEM_ACTIONS.includes(a)) && !JSON.stringify(s.Resource).includes('StreamArn'),
  );
  const resolved = raw.map((s) => ({ ...s, Resource: JSON.stringify(s.Resource).includes('/index/') ? `${TABLE}/index/*` : TABLE }));
  return { raw, statements: resolved.map((s) => toStatement(s as Record<string, unknown>).statement!).filter(Boolean) };
}

/** What the function may do with the item under this key (one authorization per request). */
function ask(name: string, operation: string, key: { PK: string; SK: string }): string[] {
  const { statements } = tableStatements(name);
  return dynamodbAuthorizations(operation, { TableName: TABLE, Key: { PK: { S: key.PK }, SK: { S: key.SK } } }, (x) => x).map((a) => evaluate(statements, a));
}

const auditPattern = definedEntities().find((e) => e.name === 'audit_entry')!.partition;
const auditEntry = { PK: auditPattern.replace('*', 'entry-1'), SK: 'AUDIT' };
const user = userKeys.user('5f0c0a0b0c0d0e0f10111213');
/** Every function of the stack that is granted table actions besides the routes. */
const OTHERS = ['hookRouting', 'hookAttempts', 'demoAuthorizer', 'auditTrail'];

describe('item-level grants (dynamodb:LeadingKeys)', () => {
  it("grants each route's table actions on its declared entities' partitions only; index Queries carry no condition", () => {
    for (const r of routeList.filter((x) => x.tableActions?.length)) {
      const { raw } = tableStatements(r.name);
      const items = raw.filter((s) => !JSON.stringify(s.Resource).includes('/index/'));
      const declared = leadingKeysOf(r.tableEntities ?? []);
      if (!declared.length) {
        // A route that touches no item (index Queries only) gets no item grant at all.
        expect(items, r.name).toEqual([]);
        continue;
      }
      const condition = (entities: readonly string[]) => ({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': leadingKeysOf(entities) } });
      if (r.access === 'read' && orgLimitOf(r)) {
        // A read's one write, its organisation limit's counter, is granted on that counter's partitions alone.
        const others = (r.tableEntities ?? []).filter((e) => e !== ORG_LIMIT_TABLE_ACCESS.entity);
        expect(
          items.map((s) => ({ actions: [s.Action].flat(), condition: s.Condition })),
          r.name,
        ).toEqual([
          { actions: r.tableActions!.filter((a) => a !== ORG_LIMIT_TABLE_ACCESS.action).map((a) => `dynamodb:${a}`), condition: condition(others) },
          { actions: [`dynamodb:${ORG_LIMIT_TABLE_ACCESS.action}`], condition: condition([ORG_LIMIT_TABLE_ACCESS.entity]) },
        ]);
      } else {
        expect(items, r.name).toHaveLength(1);
        expect(items[0]!.Condition, r.name).toEqual(condition(r.tableEntities ?? []));
      }
      for (const s of raw.filter((x) => JSON.stringify(x.Resource).includes('/index/'))) {
        expect(s.Condition, r.name).toBeUndefined();
        expect(s.Action, r.name).toBe('dynamodb:Query');
      }
    }
  });

  it('every other function with table access has the condition on its item grant too', () => {
    for (const name of OTHERS) {
      const items = tableStatements(name).raw.filter((s) => !JSON.stringify(s.Resource).includes('/index/'));
      expect(items.length, name).toBeGreaterThan(0);
      for (const s of items) expect(Object.keys(s.Condition?.['ForAllValues:StringLike'] ?? {}), name).toEqual(['dynamodb:LeadingKeys']);
    }
  });
});

describe('the audit fence: only the change feed writes audit entries (contract §12)', () => {
  it("no route function's grant, nor the delivery functions' or the demo authorizer's, names a pattern that matches an audit entry", () => {
    for (const name of [...routeList.filter((r) => r.tableActions?.length).map((r) => r.name), 'hookRouting', 'hookAttempts', 'demoAuthorizer']) {
      for (const op of ['PutItem', 'UpdateItem', 'DeleteItem', 'GetItem']) expect(ask(name, op, auditEntry), `${name} ${op}`).not.toContain('allowed');
    }
  });

  it("the audit consumer's grant names the entries' partition, and it may put one", () => {
    expect(leadingKeysOf(AUDIT_CONSUMER_ENTITIES)).toContain(auditPattern);
    expect(ask('auditTrail', 'PutItem', auditEntry)).toEqual(['allowed']);
    // ...and nothing else of the table's: not a user, not a key.
    expect(ask('auditTrail', 'PutItem', user)).toEqual(['no allow']);
    expect(ask('auditTrail', 'GetItem', keyKeys.key('a'.repeat(64)))).toEqual(['no allow']);
  });

  it('the emulator denies a route function a Put of an audit entry and of a user item, and the delivery function a user item', () => {
    // keysCreate writes keys: its grant allows a key item, not an audit entry nor a user.
    expect(ask(routes.keysCreate.name, 'PutItem', keyKeys.key('a'.repeat(64)))).toEqual(['allowed']);
    expect(ask(routes.keysCreate.name, 'PutItem', auditEntry)).toEqual(['no allow']);
    expect(ask(routes.keysCreate.name, 'PutItem', user)).toEqual(['no allow']);
    expect(ask('hookAttempts', 'UpdateItem', user)).toEqual(['no allow']);
    expect(ask('hookAttempts', 'GetItem', user)).toEqual(['no allow']);
  });

  it('lets a dashboard read update its organisation limit counter and nothing else', () => {
    const counter = {
      PK: definedEntities()
        .find((e) => e.name === 'org_limit')!
        .partition.replace(/\*/g, 'org-1'),
      SK: 'W#0',
    };
    expect(ask(routes.usersMe.name, 'UpdateItem', counter)).toEqual(['allowed']);
    expect(ask(routes.usersMe.name, 'GetItem', user)).toEqual(['allowed']);
    expect(ask(routes.usersMe.name, 'UpdateItem', user)).toEqual(['no allow']);
    expect(ask(routes.usersMe.name, 'PutItem', counter)).toEqual(['no allow']);
  });
});

describe('policy size', () => {
  it("keeps every function role's inline policy far below IAM's 10,240 characters", () => {
    const sizes = t
      .resources('AWS::IAM::Role')
      .map(([id, role]) => [id, JSON.stringify(role.Properties.Policies ?? []).length] as const)
      .sort((a, b) => b[1] - a[1]);
    // The template's tokens are shorter than the ARNs they become; the margin covers that.
    expect(sizes[0]![1], `largest: ${sizes[0]![0]}`).toBeLessThan(6000);
  });
});
