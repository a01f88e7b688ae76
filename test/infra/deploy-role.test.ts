/**
 * One stage's GitHub OIDC roles and CloudFormation execution policy (infra/deploy-role-stack.ts):
 * the deploy role trusted only by deploy.yml on main in that stage's environment and able only to
 * assume that stage's CDK deploy and publishing roles; the diff role trusted only by ci.yml in
 * this repository's pull requests and able only to read the stage's stacks (not the CDK lookup
 * role, which reads every table of the account); the execution policy covering every resource
 * type a stage creates, limited to that stage's names; clean under cdk-nag.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readDeployRoleConfig, STAGES, type StageName } from '../../infra/config';
import { ciNames, CI_WORKFLOW, DEPLOY_WORKFLOW, DeployRoleStack } from '../../infra/deploy-role-stack';
import { COVERED_RESOURCE_TYPES } from '../../infra/execution-policy';
import { cdkApp, nagReport, stageStack } from '../support/cdk';

const REPO = 'acme/gw-management';
const CLAIM = 'token.actions.githubusercontent.com';

function roleStack(context: Record<string, unknown> = {}, nag = false) {
  const app = cdkApp({ githubRepo: REPO, stage: 'prod', ...context }, nag);
  const config = readDeployRoleConfig(app.node);
  const stack = new DeployRoleStack(app, ciNames(config.stage).stack, { config });
  return { app, stack };
}

type Statement = {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
  Principal?: unknown;
  Sid?: string;
};
type Role = {
  RoleName: string;
  AssumeRolePolicyDocument: { Statement: Statement[] };
  Policies: Array<{ PolicyDocument: { Statement: Statement[] } }>;
  ManagedPolicyArns?: unknown;
};
const rolesOf = (t: Template) =>
  Object.fromEntries(
    Object.values(t.findResources('AWS::IAM::Role') as Record<string, { Properties: Role }>).map((r) => [r.Properties.RoleName, r.Properties]),
  );
const join = (...parts: unknown[]) => ({ 'Fn::Join': ['', parts] });
const [PARTITION, ACCOUNT, REGION] = [{ Ref: 'AWS::Partition' }, { Ref: 'AWS::AccountId' }, { Ref: 'AWS::Region' }];
const bootstrapRole = (kind: string, qualifier = 'hnb659fds') =>
  join('arn:', PARTITION, ':iam::', ACCOUNT, `:role/cdk-${qualifier}-${kind}-role-`, ACCOUNT, '-', REGION);
const stackArn = (name: string) => join('arn:', PARTITION, ':cloudformation:', REGION, ':', ACCOUNT, `:stack/${name}`);

describe.each(STAGES)('the %s roles stack', (stage: StageName) => {
  const t = Template.fromStack(roleStack({ stage }).stack);
  const roles = rolesOf(t);
  const names = ciNames(stage);
  const providerId = Object.keys(t.findResources('AWS::IAM::OIDCProvider'))[0];

  it("is named for its stage, with the stage's role and policy names", () => {
    expect(names.stack).toBe(`GwManagementCi-${stage}`);
    expect(Object.keys(roles).sort()).toEqual([`gw-management-${stage}-github-deploy`, `gw-management-${stage}-github-diff`]);
    t.hasResourceProperties('AWS::IAM::ManagedPolicy', { ManagedPolicyName: `gw-management-${stage}-cfn-exec` });
  });

  it('creates the GitHub OIDC provider for STS', () => {
    expect(providerId).toBeDefined();
    t.hasResourceProperties('AWS::IAM::OIDCProvider', { Url: 'https://token.actions.githubusercontent.com', ClientIdList: ['sts.amazonaws.com'] });
  });

  it(`trusts the deploy role only to ${DEPLOY_WORKFLOW} on main in the ${stage} environment`, () => {
    const [statement, ...others] = roles[names.deployRole]!.AssumeRolePolicyDocument.Statement;
    expect(others).toEqual([]);
    expect(statement).toEqual({
      Effect: 'Allow',
      Action: 'sts:AssumeRoleWithWebIdentity',
      Principal: { Federated: { Ref: providerId } },
      Condition: {
        StringEquals: {
          [`${CLAIM}:aud`]: 'sts.amazonaws.com',
          [`${CLAIM}:sub`]: `repo:${REPO}:environment:${stage}`,
          [`${CLAIM}:job_workflow_ref`]: `${REPO}/.github/workflows/deploy.yml@refs/heads/main`,
        },
      },
    });
  });

  it("lets the deploy role only assume the stage's CDK deploy and file-publishing roles (not the lookup role)", () => {
    const role = roles[names.deployRole]!;
    expect(role.ManagedPolicyArns).toBeUndefined();
    expect(role.Policies.flatMap((p) => p.PolicyDocument.Statement)).toEqual([
      { Effect: 'Allow', Action: 'sts:AssumeRole', Resource: [bootstrapRole('deploy'), bootstrapRole('file-publishing')] },
    ]);
  });

  it(`trusts the diff role only to ${CI_WORKFLOW} in this repository's pull requests`, () => {
    const [statement, ...others] = roles[names.diffRole]!.AssumeRolePolicyDocument.Statement;
    expect(others).toEqual([]);
    expect(statement).toEqual({
      Effect: 'Allow',
      Action: 'sts:AssumeRoleWithWebIdentity',
      Principal: { Federated: { Ref: providerId } },
      Condition: {
        StringEquals: { [`${CLAIM}:aud`]: 'sts.amazonaws.com', [`${CLAIM}:sub`]: `repo:${REPO}:pull_request` },
        StringLike: { [`${CLAIM}:job_workflow_ref`]: `${REPO}/.github/workflows/ci.yml@refs/pull/*/merge` },
      },
    });
  });

  it("lets the diff role only read the stage's stacks and templates: no lookup role, no data", () => {
    const role = roles[names.diffRole]!;
    expect(role.ManagedPolicyArns).toBeUndefined();
    expect(role.Policies.flatMap((p) => p.PolicyDocument.Statement)).toEqual([
      {
        Effect: 'Allow',
        Action: ['cloudformation:DescribeStacks', 'cloudformation:GetTemplate', 'cloudformation:ListStackResources'],
        Resource: [stackArn(`GwManagement-${stage}/*`), stackArn(`GwManagement-${stage}-*/*`)],
      },
    ]);
  });

  it('names no other repository, no other stage, and grants nothing else', () => {
    const text = JSON.stringify(t.toJSON());
    expect(text.match(/repo:[^"]*/g)!.every((s) => s.startsWith(`repo:${REPO}:`))).toBe(true);
    const other = STAGES.find((s) => s !== stage)!;
    expect(text).not.toContain(`gw-management-${other}`);
    expect(text).not.toContain(`GwManagement-${other}`);
    expect(text).not.toMatch(/lookup-role/);
    t.resourceCountIs('AWS::IAM::Policy', 0);
    t.resourceCountIs('AWS::IAM::ManagedPolicy', 1);
  });
});

describe('the execution policy', () => {
  const t = Template.fromStack(roleStack({ stage: 'prod' }).stack);
  const policy = Object.values(t.findResources('AWS::IAM::ManagedPolicy'))[0]!.Properties as { PolicyDocument: { Statement: Statement[] } };
  const statements = policy.PolicyDocument.Statement;
  const bySid = (sid: string) => statements.find((s) => s.Sid === sid)!;
  const text = (v: unknown) => JSON.stringify(v);

  it('limits each named kind of resource to the stage: table, functions, roles, log groups, secrets, queues, topic, alarms, dashboard', () => {
    expect(text(bySid('Table').Resource)).toContain(':table/gw-management-prod"');
    expect(text(bySid('Functions').Resource)).toContain(':function:GwManagement-prod-*');
    expect(text(bySid('FunctionRoles').Resource)).toContain(':role/GwManagement-prod-*');
    expect(text(bySid('LogGroups').Resource)).toContain(':log-group:/gw-management-prod/*');
    expect(text(bySid('Secrets').Resource)).toContain(':secret:gw-management-prod/*');
    expect(text(bySid('Queues').Resource)).toContain(':gw-management-prod-*');
    expect(text(bySid('AlarmTopic').Resource)).toContain(':gw-management-prod-alarms');
    expect(text(bySid('Alarms').Resource)).toContain(':alarm:gw-management-prod*');
    expect(text(bySid('Dashboard').Resource)).toContain(':dashboard/gw-management-prod');
    expect(text(bySid('WebAcl').Resource)).toContain('global/webacl/gw-management-prod-edge/*');
  });

  it('lets roles be passed only to Lambda and get only the basic execution managed policy', () => {
    expect(bySid('PassFunctionRoles')).toMatchObject({
      Action: 'iam:PassRole',
      Condition: { StringEquals: { 'iam:PassedToService': 'lambda.amazonaws.com' } },
    });
    expect(text(bySid('AttachBasicExecution').Condition)).toContain('policy/service-role/AWSLambdaBasicExecutionRole');
    expect(
      statements
        .filter((s) => [s.Action].flat().some((a) => a.startsWith('iam:')))
        .map((s) => s.Sid)
        .sort(),
    ).toEqual(['AttachBasicExecution', 'FunctionRoles', 'PassFunctionRoles', 'TableServiceRole']);
    expect(bySid('TableServiceRole').Condition).toEqual({ StringEquals: { 'iam:AWSServiceName': 'replication.dynamodb.amazonaws.com' } });
    expect([bySid('FunctionRoles').Action].flat()).not.toContain('iam:AttachRolePolicy');
  });

  it('creates and uses only keys tagged with the stage', () => {
    expect(bySid('CreateKey').Condition).toEqual({ StringEquals: { 'aws:RequestTag/gw-management:stage': 'prod' } });
    expect(bySid('Key').Condition).toEqual({ StringEquals: { 'aws:ResourceTag/gw-management:stage': 'prod' } });
  });

  it('grants no wildcard service outside its statement, and no action on every resource but those without resource-level permissions', () => {
    expect(statements.every((s) => s.Effect === 'Allow')).toBe(true);
    const everywhere = statements.filter((s) => s.Resource === '*' || text(s.Resource) === '["*"]');
    expect(everywhere.map((s) => s.Sid).sort()).toEqual(['AccessLogDelivery', 'CreateKey', 'SecretValues', 'TableHandler']);
    expect(
      [bySid('TableHandler').Action].flat().filter((a) => !/^(application-autoscaling:Describe|kms:ListAliases$|cloudwatch:PutMetricData$)/.test(a)),
    ).toEqual([]);
    expect([bySid('SecretValues').Action].flat()).toEqual(['secretsmanager:GetRandomPassword']);
    expect(statements.some((s) => [s.Action].flat().includes('*'))).toBe(false);
  });

  it('uses the bootstrap qualifier given', () => {
    const custom = Template.fromStack(roleStack({ stage: 'dev', cdkQualifier: 'gwdev' }).stack);
    expect(JSON.stringify(custom.toJSON())).toContain('cdk-gwdev-assets-');
    expect(JSON.stringify(custom.toJSON())).toContain('cdk-gwdev-deploy-role-');
    expect(JSON.stringify(custom.toJSON())).not.toContain('hnb659fds');
  });

  // Every resource type a stage creates, with both options on, needs a statement that covers it.
  it.each(STAGES)(
    'covers every resource type of the %s stage with cmk and edge on',
    (stage) => {
      const { stack } = stageStack({ stage, cmk: 'on', edge: 'on' });
      const types = new Set(
        [Template.fromStack(stack), Template.fromStack(stack.monitoring)].flatMap((x) =>
          Object.values(x.toJSON().Resources as Record<string, { Type: string }>).map((r) => r.Type),
        ),
      );
      types.delete('AWS::CDK::Metadata');
      const covered = new Set(Object.values(COVERED_RESOURCE_TYPES).flat());
      expect([...types].filter((ty) => !covered.has(ty))).toEqual([]);
      expect(Object.keys(COVERED_RESOURCE_TYPES).every((sid) => statements.some((s) => s.Sid === sid))).toBe(true);
    },
    120_000,
  );
});

describe('other settings', () => {
  it('reuse an existing provider and take immutable repository names (the workflow ref keeps the plain names)', () => {
    const arn = 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com';
    const other = Template.fromStack(roleStack({ githubOidcProviderArn: arn, githubRepo: 'acme@11/gw@22' }).stack);
    other.resourceCountIs('AWS::IAM::OIDCProvider', 0);
    const deploy = rolesOf(other)[ciNames('prod').deployRole]!.AssumeRolePolicyDocument.Statement[0]!;
    expect(deploy.Principal).toEqual({ Federated: arn });
    expect(deploy.Condition!.StringEquals![`${CLAIM}:sub`]).toBe('repo:acme@11/gw@22:environment:prod');
    expect(deploy.Condition!.StringEquals![`${CLAIM}:job_workflow_ref`]).toBe('acme/gw/.github/workflows/deploy.yml@refs/heads/main');
  });

  it('name workflows that exist', () => {
    expect(existsSync(DEPLOY_WORKFLOW) && existsSync(CI_WORKFLOW)).toBe(true);
  });

  it('deploy without the bootstrap: no bootstrap role, no bootstrap version parameter', () => {
    const { app, stack } = roleStack();
    const artifact = app.synth().getStackArtifact(stack.artifactId);
    expect(artifact.assumeRoleArn).toBeUndefined();
    expect(artifact.cloudFormationExecutionRoleArn).toBeUndefined();
    expect(Template.fromStack(stack).toJSON().Parameters).toBeUndefined();
  });

  it('pass cdk-nag, each wildcard acknowledged on its own policy with its reason', () => {
    const { app } = roleStack({}, true);
    expect(nagReport(app)).toBe('');
  }, 60_000);
});
