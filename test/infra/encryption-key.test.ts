/**
 * `-c cmk=on` (infra/constructs/stage-key.ts, docs/operating/security.md "Encryption keys"): one customer-managed key
 * per stage, rotated, encrypting the table, both webhook queues and every log group; CloudWatch
 * Logs may use it for the stage's log groups only; each function gets only the key actions its
 * table and queue access needs. Off (the default), AWS's own keys do all of it.
 */
import { roleStatements } from '../support/role-statements';
import { beforeAll, describe, expect, it } from 'vitest';
import { WRITE_TABLE_ACTIONS } from '../../shared/route-def';
import { routeList } from '../../shared/routes';
import { stageStack, templateOf } from '../support/cdk';

let on: ReturnType<typeof templateOf>;
let onProd: ReturnType<typeof templateOf>;
let off: ReturnType<typeof templateOf>;
beforeAll(() => {
  on = templateOf(stageStack({ stage: 'dev', cmk: 'on' }).stack);
  onProd = templateOf(stageStack({ stage: 'prod', cmk: 'on' }).stack);
  off = templateOf(stageStack({ stage: 'dev' }).stack);
}, 180_000);

const keyArn = () => ({ 'Fn::GetAtt': [on.resources('AWS::KMS::Key')[0]![0], 'Arn'] });
/** The kms: actions a function's role is granted, with the resources they name. */
const kmsOf = (t: ReturnType<typeof templateOf>, name: string) =>
  t
    .statementsOf(t.functionOf(name)[1])
    .filter((s) => [s.Action].flat().some((a) => a.startsWith('kms:')))
    .map((s) => ({ actions: [s.Action].flat(), resource: s.Resource }));

describe('cmk=on', () => {
  it('creates one key for the stage, rotated, with its alias; dev may lose it (after 7 days), prod keeps it', () => {
    const keys = on.resources('AWS::KMS::Key');
    expect(keys).toHaveLength(1);
    expect(keys[0]![1].Properties).toMatchObject({ EnableKeyRotation: true, PendingWindowInDays: 7 });
    expect(keys[0]![1].DeletionPolicy).toBe('Delete');
    expect(onProd.resources('AWS::KMS::Key')[0]![1].DeletionPolicy).toBe('Retain');
    on.template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/gw-management-dev', TargetKeyId: keyArn() });
  });

  it('encrypts the table with it', () => {
    const [, table] = on.resources('AWS::DynamoDB::GlobalTable')[0]!;
    expect(table.Properties.SSESpecification).toEqual({ SSEEnabled: true, SSEType: 'KMS' });
    expect(table.Properties.Replicas).toHaveLength(1);
    expect(table.Properties.Replicas[0].SSESpecification).toEqual({ KMSMasterKeyId: keyArn() });
  });

  it('encrypts both webhook queues with it', () => {
    const queues = on.resources('AWS::SQS::Queue');
    expect(queues).toHaveLength(2);
    for (const [id, q] of queues) {
      expect(q.Properties.KmsMasterKeyId, id).toEqual(keyArn());
      expect(q.Properties.SqsManagedSseEnabled, id).toBeUndefined();
    }
  });

  it('encrypts every log group with it, and lets CloudWatch Logs use it for the stage log groups only', () => {
    const groups = on.resources('AWS::Logs::LogGroup');
    // One per folder of functions/ and the access logs.
    expect(groups.length).toBeGreaterThan(new Set(routeList.map((r) => r.entry.split('/')[1])).size);
    for (const [id, g] of groups) expect(g.Properties.KmsKeyId, id).toEqual(keyArn());
    const statements = on.resources('AWS::KMS::Key')[0]![1].Properties.KeyPolicy.Statement as Array<Record<string, any>>;
    const logs = statements.find((s) => s.Sid === 'StageLogGroups')!;
    expect(logs.Principal).toEqual({ Service: { 'Fn::Join': ['', ['logs.', { Ref: 'AWS::Region' }, '.amazonaws.com']] } });
    expect(JSON.stringify(logs.Condition.ArnLike['kms:EncryptionContext:aws:logs:arn'])).toContain(':log-group:/gw-management-dev/*');
    // The rest of the key policy is the account's, as for any key (IAM policies then decide).
    expect(statements.filter((s) => s.Sid !== 'StageLogGroups').map((s) => s.Principal)).toEqual([
      { AWS: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::', { Ref: 'AWS::AccountId' }, ':root']] } },
    ]);
  });

  it(
    "gives each route's function Decrypt on the key to read, Encrypt and GenerateDataKey too only if it " + 'writes, and nothing to those without table access',
    () => {
      for (const r of routeList) {
        const actions = r.tableActions ?? [];
        const writes = actions.some((a) => (WRITE_TABLE_ACTIONS as readonly string[]).includes(a));
        const expected =
          actions.length === 0 ? [] : [{ actions: writes ? ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey'] : ['kms:Decrypt'], resource: keyArn() }];
        expect(kmsOf(on, r.name), r.name).toEqual(expected);
      }
      expect(kmsOf(on, 'fallback')).toEqual([]);
    },
  );

  it('lets the webhook workers read the stream and use the queues with the key, and no function use any other key', () => {
    for (const name of ['hookRouting', 'hookAttempts', 'auditTrail']) {
      const grants = kmsOf(on, name);
      expect(
        grants.every((g) => JSON.stringify(g.resource) === JSON.stringify(keyArn())),
        name,
      ).toBe(true);
      expect(
        grants.flatMap((g) => g.actions),
        name,
      ).toContain('kms:Decrypt');
    }
    expect(kmsOf(on, 'hookAttempts').flatMap((g) => g.actions)).toContain('kms:GenerateDataKey*');
    for (const [id] of on.resources('AWS::IAM::Role')) {
      for (const s of roleStatements(on.template.toJSON().Resources, id)) {
        if ([s.Action].flat().some((a) => a.startsWith('kms:'))) expect(s.Resource, id).toEqual(keyArn());
      }
    }
  });
});

describe('cmk=off (the default)', () => {
  it("creates no key and leaves the table, queues and log groups to AWS's keys", () => {
    off.template.resourceCountIs('AWS::KMS::Key', 0);
    const [, table] = off.resources('AWS::DynamoDB::GlobalTable')[0]!;
    expect(table.Properties.SSESpecification).toBeUndefined();
    for (const [, q] of off.resources('AWS::SQS::Queue')) expect(q.Properties.SqsManagedSseEnabled).toBe(true);
    for (const [, g] of off.resources('AWS::Logs::LogGroup')) expect(g.Properties.KmsKeyId).toBeUndefined();
    expect(JSON.stringify(off.template.toJSON())).not.toMatch(/"kms:/);
  });
});
