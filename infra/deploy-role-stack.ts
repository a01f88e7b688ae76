/**
 * What GitHub Actions and CloudFormation may do for one stage (docs/operating/deploy.md "From an
 * empty account to a CI deploy"). Deployed once per stage, into that stage's account (one account
 * per stage is the recommended layout), by an operator and apart from the stage stacks
 * (infra/deploy-role-app.ts). It needs no `cdk bootstrap` (it has no assets), so it comes first and
 * the bootstrap can name its execution policy.
 * - deploy role: trusted only by deploy.yml on main, in a job of the stage's GitHub environment
 *   (which holds the branch rule and, for prod, the reviewers); may only assume the stage's CDK
 *   deploy and file-publishing roles, which do the deploying.
 * - diff role: trusted only by ci.yml in this repository's pull requests; may only read the
 *   stage's stacks and templates, which is all `cdk diff --method=template` needs. Not the CDK
 *   lookup role: that one is ReadOnlyAccess, which can read every table of the account.
 * - execution policy: what CloudFormation may do for the stage (infra/execution-policy.ts), for
 *   `cdk bootstrap --cloudformation-execution-policies` instead of AdministratorAccess.
 */
import { Aws, CfnOutput, LegacyStackSynthesizer, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { ManagedPolicy, OidcProviderNative, OpenIdConnectPrincipal, PolicyDocument, PolicyStatement, Role, type IOidcProvider } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { stageNames, type DeployRoleConfig, type StageName } from './config';
import { executionPolicyStatements, toPolicyStatement } from './execution-policy';

const GITHUB_OIDC_URL = 'https://token.actions.githubusercontent.com';
const CLAIM = 'token.actions.githubusercontent.com';
/** The workflows the roles trust, and the one branch that deploys (.github/workflows). */
export const DEPLOY_WORKFLOW = '.github/workflows/deploy.yml';
export const CI_WORKFLOW = '.github/workflows/ci.yml';
export const DEPLOY_BRANCH = 'main';

/** Names of what one stage's roles stack creates. */
export function ciNames(stage: StageName) {
  const base = stageNames(stage).prefix;
  return {
    stack: `GwManagementCi-${stage}`,
    deployRole: `${base}-github-deploy`,
    diffRole: `${base}-github-diff`,
    executionPolicy: `${base}-cfn-exec`,
  };
}

/** A resolved ARN as cdk-nag names it in a finding: references as `<Name>`. */
function flatten(value: unknown): string {
  if (typeof value === 'string') return value;
  const v = value as { Ref?: string; 'Fn::Join'?: [string, unknown[]] };
  if (v.Ref) return `<${v.Ref}>`;
  if (v['Fn::Join']) return v['Fn::Join'][1].map(flatten).join(v['Fn::Join'][0]);
  return JSON.stringify(value);
}

/** The CDK bootstrap roles of `cdk bootstrap` in this account and region. */
const bootstrapRole = (qualifier: string, kind: 'deploy' | 'file-publishing') =>
  `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/cdk-${qualifier}-${kind}-role-${Aws.ACCOUNT_ID}-${Aws.REGION}`;

export interface DeployRoleStackProps extends StackProps {
  config: DeployRoleConfig;
}

export class DeployRoleStack extends Stack {
  constructor(scope: Construct, id: string, props: DeployRoleStackProps) {
    // Deployed with the operator's own credentials, before (and without) the bootstrap: no
    // bootstrap roles to assume, and a template small enough to send inline (no bucket).
    super(scope, id, { synthesizer: new LegacyStackSynthesizer(), ...props });
    const { config } = props;
    const names = ciNames(config.stage);
    const stage = stageNames(config.stage);
    const provider: IOidcProvider = config.existingProviderArn
      ? OidcProviderNative.fromOidcProviderArn(this, 'GitHubOidc', config.existingProviderArn)
      : new OidcProviderNative(this, 'GitHubOidc', { url: GITHUB_OIDC_URL, clientIds: ['sts.amazonaws.com'] });

    // job_workflow_ref names the workflow file and ref without the ids an immutable `sub` carries.
    const repoPath = config.repo.replace(/@\d+/g, '');
    const trustedBy = (sub: string, workflowRef: { equals: string } | { like: string }) =>
      new OpenIdConnectPrincipal(provider, {
        StringEquals: {
          [`${CLAIM}:aud`]: 'sts.amazonaws.com',
          [`${CLAIM}:sub`]: sub,
          ...('equals' in workflowRef ? { [`${CLAIM}:job_workflow_ref`]: workflowRef.equals } : {}),
        },
        ...('like' in workflowRef ? { StringLike: { [`${CLAIM}:job_workflow_ref`]: workflowRef.like } } : {}),
      });

    const deploy = new Role(this, 'DeployRole', {
      roleName: names.deployRole,
      description: `GitHub Actions deploys of ${stage.stack} from ${config.repo} (environment ${config.stage}, ${DEPLOY_WORKFLOW} on ${DEPLOY_BRANCH})`,
      assumedBy: trustedBy(`repo:${config.repo}:environment:${config.stage}`, { equals: `${repoPath}/${DEPLOY_WORKFLOW}@refs/heads/${DEPLOY_BRANCH}` }),
      inlinePolicies: {
        AssumeCdkBootstrapRoles: new PolicyDocument({
          statements: [
            new PolicyStatement({
              actions: ['sts:AssumeRole'],
              resources: [bootstrapRole(config.cdkQualifier, 'deploy'), bootstrapRole(config.cdkQualifier, 'file-publishing')],
            }),
          ],
        }),
      },
    });

    // Pull requests of this repository (not forks: they get no token) run ci.yml from their merge ref.
    const diff = new Role(this, 'DiffRole', {
      roleName: names.diffRole,
      description: `GitHub Actions pull-request diffs of ${stage.stack} from ${config.repo} (reads its stacks' templates only)`,
      assumedBy: trustedBy(`repo:${config.repo}:pull_request`, { like: `${repoPath}/${CI_WORKFLOW}@refs/pull/*/merge` }),
      inlinePolicies: {
        ReadStageTemplates: new PolicyDocument({
          statements: [
            new PolicyStatement({
              actions: ['cloudformation:DescribeStacks', 'cloudformation:GetTemplate', 'cloudformation:ListStackResources'],
              // The stage stack and its nested stacks (named <stack>-<logical id>-<suffix>).
              resources: [`stack/${stage.stack}/*`, `stack/${stage.stack}-*/*`].map(
                (r) => `arn:${Aws.PARTITION}:cloudformation:${Aws.REGION}:${Aws.ACCOUNT_ID}:${r}`,
              ),
            }),
          ],
        }),
      },
    });

    Validations.of(diff).acknowledge(
      ...[`stack/${stage.stack}/*`, `stack/${stage.stack}-*/*`].map((r) => ({
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:cloudformation:<AWS::Region>:<AWS::AccountId>:${r}]`,
        reason:
          "A stack's ARN ends in the id CloudFormation gives it, and a nested stack's name in a generated " +
          'suffix: these match the stage stack and its nested stacks only.',
      })),
    );

    const statements = executionPolicyStatements(config.stage, config.cdkQualifier);
    const execution = new ManagedPolicy(this, 'ExecutionPolicy', {
      managedPolicyName: names.executionPolicy,
      description: `What CloudFormation may do when it deploys ${stage.stack} (cdk bootstrap --cloudformation-execution-policies)`,
      statements: statements.map(toPolicyStatement),
    });
    // Each wildcard is acknowledged with the reason its statement gives (one reason per finding).
    const reasons = new Map<string, string[]>();
    for (const s of statements) {
      const findings = [
        ...s.actions.filter((a) => a.includes('*')).map((a) => `Action::${a}`),
        ...s.resources
          .map((r) => flatten(this.resolve(r)))
          .filter((r) => r.includes('*'))
          .map((r) => `Resource::${r}`),
      ];
      for (const f of findings) reasons.set(f, [...(reasons.get(f) ?? []), `${s.sid}: ${s.why}`]);
    }
    Validations.of(execution).acknowledge(...[...reasons].map(([f, why]) => ({ id: `AwsSolutions-IAM5[${f}]`, reason: why.join(' ') })));

    new CfnOutput(this, 'DeployRoleArn', { value: deploy.roleArn, description: `GitHub variable AWS_DEPLOY_ROLE_ARN of the ${config.stage} environment` });
    new CfnOutput(this, 'DiffRoleArn', { value: diff.roleArn, description: `GitHub repository variable AWS_DIFF_ROLE_ARN_${config.stage.toUpperCase()}` });
    new CfnOutput(this, 'ExecutionPolicyArn', { value: execution.managedPolicyArn, description: 'cdk bootstrap --cloudformation-execution-policies' });
  }
}
