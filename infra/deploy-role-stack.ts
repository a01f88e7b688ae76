/**
 * The roles GitHub Actions assume through OIDC (README "Deploy"): no stored keys. Deployed once
 * per account by an operator, apart from the stage stacks (infra/deploy-role-app.ts).
 * - deploy: trusted only by jobs of this repository that run in one of its deploy environments
 *   (the environments hold the branch rule and the reviewers); may only assume the CDK bootstrap
 *   roles, which do the deploying.
 * - diff: trusted only by this repository's pull-request jobs; may only assume the bootstrap
 *   lookup role (read-only), which is all `cdk diff --method=template` needs.
 */
import { Aws, CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { OidcProviderNative, OpenIdConnectPrincipal, PolicyDocument, PolicyStatement, Role, type IOidcProvider } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { DeployRoleConfig } from './config';

export const DEPLOY_ROLE_STACK = 'GwManagementDeployRole';
export const GITHUB_OIDC_URL = 'https://token.actions.githubusercontent.com';
const CLAIM = 'token.actions.githubusercontent.com';

/** The bootstrap roles of `cdk bootstrap` in this account and region. */
const bootstrapRole = (qualifier: string, kind: 'deploy' | 'file-publishing' | 'image-publishing' | 'lookup') =>
  `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/cdk-${qualifier}-${kind}-role-${Aws.ACCOUNT_ID}-${Aws.REGION}`;

export interface DeployRoleStackProps extends StackProps {
  config: DeployRoleConfig;
}

export class DeployRoleStack extends Stack {
  constructor(scope: Construct, id: string, props: DeployRoleStackProps) {
    super(scope, id, props);
    const { config } = props;
    const provider: IOidcProvider = config.existingProviderArn
      ? OidcProviderNative.fromOidcProviderArn(this, 'GitHubOidc', config.existingProviderArn)
      : new OidcProviderNative(this, 'GitHubOidc', { url: GITHUB_OIDC_URL, clientIds: ['sts.amazonaws.com'] });

    const trustedBy = (subjects: string[]) =>
      new OpenIdConnectPrincipal(provider, {
        StringEquals: { [`${CLAIM}:aud`]: 'sts.amazonaws.com', [`${CLAIM}:sub`]: subjects },
      });
    const mayAssume = (...roles: string[]) =>
      new PolicyDocument({ statements: [new PolicyStatement({ actions: ['sts:AssumeRole'], resources: roles })] });

    const q = config.cdkQualifier;
    const deploy = new Role(this, 'DeployRole', {
      roleName: 'gw-management-github-deploy',
      description: `GitHub Actions deploys of ${config.repo} (environments ${config.environments.join(', ')})`,
      assumedBy: trustedBy(config.environments.map((e) => `repo:${config.repo}:environment:${e}`)),
      inlinePolicies: { AssumeCdkBootstrapRoles: mayAssume(...(['deploy', 'file-publishing', 'image-publishing', 'lookup'] as const).map((k) => bootstrapRole(q, k))) },
    });
    const diff = new Role(this, 'DiffRole', {
      roleName: 'gw-management-github-diff',
      description: `GitHub Actions pull-request diffs of ${config.repo} (read-only)`,
      assumedBy: trustedBy([`repo:${config.repo}:pull_request`]),
      inlinePolicies: { AssumeCdkLookupRole: mayAssume(bootstrapRole(q, 'lookup')) },
    });

    new CfnOutput(this, 'DeployRoleArn', { value: deploy.roleArn, description: 'GitHub variable AWS_DEPLOY_ROLE_ARN' });
    new CfnOutput(this, 'DiffRoleArn', { value: diff.roleArn, description: 'GitHub variable AWS_DIFF_ROLE_ARN' });
  }
}
