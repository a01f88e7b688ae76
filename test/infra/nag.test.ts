/**
 * cdk-nag's AwsSolutions pack over each stage, and over a stage with the customer-managed key and
 * the edge on (and the roles stack in deploy-role.test.ts),
 * as CDK policy validation: synthesis fails on any finding not acknowledged on its own resource.
 * Acknowledgements and their reasons: infra/constructs/nag-acknowledgements.ts.
 */
import { CfnResource, Stack, Validations } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { STAGES } from '../../infra/config';
import { nagReport, stageStack } from '../support/cdk';

/** Every construct that carries an acknowledgement, with the rule ids. */
function acknowledgedAt(root: IConstruct): Array<{ construct: IConstruct; ids: string[] }> {
  return root.node
    .findAll()
    .map((construct) => ({
      construct,
      ids: construct.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY).flatMap((m) => Object.keys(m.data as object)),
    }))
    .filter((x) => x.ids.length > 0);
}

/** Each stage as it is by default, and one with every option on. */
const CONFIGS: Array<Record<string, string>> = [...STAGES.map((stage) => ({ stage })), { stage: 'prod', cmk: 'on', edge: 'on', dataPlane: 'on' }];

describe.each(CONFIGS)('cdk-nag AwsSolutions, %j', (context) => {
  it('finds nothing unacknowledged', () => {
    const { app } = stageStack(context, true);
    expect(nagReport(app)).toBe('');
  }, 120_000);

  it('acknowledges each finding on its own resource, never on the stack or the app', () => {
    const { app, stack } = stageStack(context);
    const at = acknowledgedAt(app);
    expect(at.length).toBeGreaterThan(40);
    for (const { construct } of at) {
      expect(construct).not.toBeInstanceOf(Stack);
      // A resource: an L1 itself, or an L2 whose default child is its L1.
      const own = CfnResource.isCfnResource(construct) || (construct.node.defaultChild !== undefined && CfnResource.isCfnResource(construct.node.defaultChild));
      expect(own, construct.node.path).toBe(true);
    }
    expect(acknowledgedAt(stack).map((x) => x.construct)).not.toContain(stack);
  });
});

/** The findings of a synth with every acknowledgement left out: construct path and rule id. */
function findingsWithoutAcknowledgements(context: Record<string, string>): Array<{ path: string; id: string }> {
  const acknowledge = Validations.prototype.acknowledge;
  let app: ReturnType<typeof stageStack>['app'];
  try {
    Validations.prototype.acknowledge = () => undefined;
    app = stageStack(context, true).app;
  } finally {
    Validations.prototype.acknowledge = acknowledge;
  }
  const report = nagReport(app);
  return [...report.matchAll(/^\s+(\S+) \S+\n\s+Acknowledge with '(?:AwsSolutions::)?([^']+)'/gm)].map((m) => ({ path: m[1]!, id: m[2]! }));
}

describe.each(CONFIGS)('acknowledgements, %j', (context) => {
  it('each matches a finding on its resource (none outlives its reason)', () => {
    const findings = findingsWithoutAcknowledgements(context);
    expect(findings.length).toBeGreaterThan(40);
    const { app } = stageStack(context);
    const stale: string[] = [];
    for (const { construct, ids } of acknowledgedAt(app)) {
      for (const raw of ids) {
        const id = raw.replace(/^[A-Za-z]+::/, '');
        const path = construct.node.path;
        if (!findings.some((f) => f.id === id && (f.path === path || f.path.startsWith(`${path}/`)))) stale.push(`${id} on ${path}`);
      }
    }
    expect(stale).toEqual([]);
  }, 120_000);
});

describe('a new resource with a finding', () => {
  it('fails synth until it is fixed or acknowledged on that resource', () => {
    const { app, stack } = stageStack({ stage: 'dev' }, true);
    new Bucket(stack, 'Unchecked');
    const report = nagReport(app);
    expect(report).toMatch(/AwsSolutions-S1/);
    expect(report).toContain(`${stack.stackName}/Unchecked/Resource`);
    expect(report).not.toMatch(/Fn[A-Z]\w+\/|Monitoring\//);
  }, 120_000);
});
