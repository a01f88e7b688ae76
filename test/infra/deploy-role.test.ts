/**
 * The GitHub OIDC roles (infra/deploy-role-stack.ts): trusted only by this repository's deploy
 * environments (deploy role) or its pull requests (diff role), allowed only to assume the CDK
 * bootstrap roles, and clean under cdk-nag.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { readDeployRoleConfig } from '../../infra/config';
import { DEPLOY_ROLE_STACK, DeployRoleStack } from '../../infra/deploy-role-stack';
import { cdkApp, nagReport } from '../support/cdk';

const REPO = 'acme/gw-management';

function roleStack(context: Record<string, unknown> = {}, nag = false) {
  const app = cdkApp({ githubRepo: REPO, ...context }, nag);
  const stack = new DeployRoleStack(app, DEPLOY_ROLE_STACK, { config: readDeployRoleConfig(app.node) });
  return { app, stack };
}

type Role = { Properties: { RoleName: string; AssumeRolePolicyDocument: any; Policies: any[]; ManagedPolicyArns?: unknown } };
const rolesOf = (t: Template) => Object.fromEntries(Object.values(t.findResources('AWS::IAM::Role') as Record<string, Role>).map((r) => [r.Properties.RoleName, r.Properties]));
const bootstrapRole = (kind: string) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::', { Ref: 'AWS::AccountId' }, `:role/cdk-hnb659fds-${kind}-role-`, { Ref: 'AWS::AccountId' }, '-', { Ref: 'AWS::Region' }]],
});

describe('deploy role stack', () => {
  const t = Template.fromStack(roleStack().stack);
  const roles = rolesOf(t);

  const providerId = Object.keys(t.findResources('AWS::IAM::OIDCProvider'))[0];

  it('creates the GitHub OIDC provider for STS', () => {
    expect(providerId).toBeDefined();
    t.hasResourceProperties('AWS::IAM::OIDCProvider', { Url: 'https://token.actions.githubusercontent.com', ClientIdList: ['sts.amazonaws.com'] });
  });

  it('trusts the deploy role only to jobs of this repository in its dev and prod environments', () => {
    const [statement, ...others] = roles['gw-management-github-deploy']!.AssumeRolePolicyDocument.Statement;
    expect(others).toEqual([]);
    expect(statement).toMatchObject({
      Effect: 'Allow',
      Action: 'sts:AssumeRoleWithWebIdentity',
      Principal: { Federated: { Ref: providerId } },
      Condition: {
        StringEquals: {
          'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com',
          'token.actions.githubusercontent.com:sub': [`repo:${REPO}:environment:dev`, `repo:${REPO}:environment:prod`],
        },
      },
    });
    expect(Object.keys(statement.Condition)).toEqual(['StringEquals']);
  });

  it('lets the deploy role only assume the CDK bootstrap roles', () => {
    const role = roles['gw-management-github-deploy']!;
    expect(role.ManagedPolicyArns).toBeUndefined();
    expect(role.Policies.flatMap((p) => p.PolicyDocument.Statement)).toEqual([
      { Effect: 'Allow', Action: 'sts:AssumeRole', Resource: ['deploy', 'file-publishing', 'image-publishing', 'lookup'].map(bootstrapRole) },
    ]);
  });

  it('trusts the diff role only to pull requests of this repository, and lets it assume only the read-only lookup role', () => {
    const role = roles['gw-management-github-diff']!;
    const [statement, ...others] = role.AssumeRolePolicyDocument.Statement;
    expect(others).toEqual([]);
    expect(statement.Condition.StringEquals['token.actions.githubusercontent.com:sub']).toEqual([`repo:${REPO}:pull_request`]);
    expect(statement.Condition.StringEquals['token.actions.githubusercontent.com:aud']).toBe('sts.amazonaws.com');
    expect(role.ManagedPolicyArns).toBeUndefined();
    expect(role.Policies.flatMap((p) => p.PolicyDocument.Statement)).toEqual([{ Effect: 'Allow', Action: 'sts:AssumeRole', Resource: bootstrapRole('lookup') }]);
  });

  it('names no other repository and grants nothing else', () => {
    const text = JSON.stringify(t.toJSON());
    expect(text.match(/repo:[^"]*/g)!.every((s) => s.startsWith(`repo:${REPO}:`))).toBe(true);
    expect(Object.keys(roles).sort()).toEqual(['gw-management-github-deploy', 'gw-management-github-diff']);
    t.resourceCountIs('AWS::IAM::Policy', 0);
    t.resourceCountIs('AWS::IAM::ManagedPolicy', 0);
  });

  it('reuses an existing provider, takes other environments and immutable repository names', () => {
    const arn = 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com';
    const other = Template.fromStack(roleStack({ githubOidcProviderArn: arn, githubEnvironments: 'production', githubRepo: 'acme@11/gw@22' }).stack);
    other.resourceCountIs('AWS::IAM::OIDCProvider', 0);
    const deploy = rolesOf(other)['gw-management-github-deploy']!.AssumeRolePolicyDocument.Statement[0];
    expect(deploy.Principal).toEqual({ Federated: arn });
    expect(deploy.Condition.StringEquals['token.actions.githubusercontent.com:sub']).toEqual(['repo:acme@11/gw@22:environment:production']);
  });

  it('passes cdk-nag with no acknowledgement at all', () => {
    const { app } = roleStack({}, true);
    expect(nagReport(app)).toBe('');
  }, 60_000);
});
